use tool_core::tool;

/// Read raw memory.
#[tool]
unsafe fn peek(address: usize) -> u8 {
    let _ = address;
    0
}

fn main() {}
