use tool_core::tool;

/// Render a report, only as a task.
#[tool(tasks_only)]
async fn render() -> String {
    String::from("done")
}

/// Book a trip, asking first.
#[tool(asks_first)]
async fn book() -> String {
    String::from("booked")
}

/// Book a table, asking first but saying it never asks.
#[tool(long_running, asks_first, asks = false)]
async fn table() -> String {
    String::from("booked")
}

fn main() {}
