use schemars::JsonSchema;
use serde::Deserialize;
use tool_core::elicit::Elicit;

/// A point: its fields have no names to ask by.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Point(f64, f64);

fn main() {}
