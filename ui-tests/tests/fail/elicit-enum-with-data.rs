use schemars::JsonSchema;
use serde::Deserialize;
use tool_core::elicit::Elicit;

#[derive(Deserialize, JsonSchema, Elicit)]
enum Room {
    Single,
    Double,
    Other(String),
}

fn main() {}
