use schemars::JsonSchema;
use serde::Deserialize;
use tool_core::elicit::Elicit;

#[derive(Deserialize, JsonSchema, Elicit)]
#[serde(untagged)]
enum Room {
    Single,
    Double,
}

fn main() {}
