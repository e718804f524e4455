use tool_core::tool;

/// Run a query.
#[tool(callers = "robots")]
fn query(sql: String) -> String {
    sql
}

fn main() {}
