use tool_core::resource;

struct Day(u8);

/// A day's log.
#[resource(uri = "logs://{day}")]
async fn log(day: Day) -> String {
    day.0.to_string()
}

fn main() {}
