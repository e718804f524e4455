use schemars::JsonSchema;
use serde::Deserialize;
use tool_core::elicit::Elicit;

#[derive(Deserialize, JsonSchema, Elicit)]
struct Answer<T> {
    value: T,
}

fn main() {}
