use schemars::JsonSchema;
use serde::Deserialize;
use tool_core::elicit::Elicit;

/// How many guests.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Guests {
    /// A form cannot tell "no answer" from "answered none".
    count: Option<Option<u8>>,
}

fn main() {}
