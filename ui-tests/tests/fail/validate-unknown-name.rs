use tool_core::{tool, Violation};

fn ordered(start: &u32, end: &u32) -> Result<(), Violation> {
    let _ = (start, end);
    Ok(())
}

/// Count the days.
#[tool(validate = ordered(start, finish))]
fn days(start: u32, end: u32) -> u32 {
    end - start
}

fn main() {}
