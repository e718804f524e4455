//! The resources the suite's scenarios read and subscribe to.

use serde_json::{Value, json};
use tool_core::resource;
use tool_core::resource::Resources;

use crate::tools::{PNG, decoded};

use crate::server::Fixtures;

/// Every resource of the suite's scenarios.
pub(crate) fn resources() -> Resources<Fixtures> {
    Resources::new()
        .with(StaticText)
        .with(StaticBinary)
        .with(WatchedResource)
        .with(TemplateData)
}

/// A resource of text that never changes.
#[resource(
    uri = "test://static-text",
    name = "static-text",
    mime_type = "text/plain"
)]
fn static_text() -> &'static str {
    "This is the content of the static text resource."
}

/// A resource of bytes (a PNG image) that never changes.
#[resource(
    uri = "test://static-binary",
    name = "static-binary",
    mime_type = "image/png"
)]
fn static_binary() -> Vec<u8> {
    decoded(PNG)
}

/// A resource a client can subscribe to.
#[resource(
    uri = "test://watched-resource",
    name = "watched-resource",
    mime_type = "text/plain"
)]
fn watched_resource() -> &'static str {
    "Watched resource content."
}

/// The data of an id.
#[resource(
    uri = "test://template/{id}/data",
    name = "template-data",
    mime_type = "application/json",
    complete = known_ids
)]
fn template_data(id: String) -> Value {
    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
}

/// The ids a client completing the template's `id` is offered.
fn known_ids(_name: &str, prefix: &str) -> Vec<String> {
    ["123", "456", "789"]
        .into_iter()
        .filter(|id| id.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}
