extern crate tool_core as my_tools;

/// Get the time.
#[my_tools::tool(crate = my_tools)]
fn now() -> String {
    String::from("noon")
}

/// Get the date.
#[my_tools::tool(crate = "::my_tools")]
fn today() -> String {
    String::from("monday")
}

fn main() {
    let registry: my_tools::ToolRegistry = my_tools::ToolRegistry::new().with(Now).with(Today);
    assert_eq!(registry.tools().len(), 2);
}
