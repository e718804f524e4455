use schemars::JsonSchema;
use serde::Deserialize;
use tool_core::elicit::Elicit;

/// Labels for a photo.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Labels {
    /// Free text, several times: no form shows that.
    tags: Vec<String>,
}

fn main() {}
