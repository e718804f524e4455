use schemars::JsonSchema;
use serde::Deserialize;
use tool_core::elicit::Elicit;

#[derive(Deserialize, JsonSchema, Elicit)]
struct Address {
    street: String,
    city: String,
}

/// Where to deliver.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Delivery {
    /// An object inside the object: a form is one level deep.
    address: Address,
    /// Flattened, its fields are this question's own: that is fine.
    #[serde(flatten)]
    billing: Address,
}

fn main() {}
