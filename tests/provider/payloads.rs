//! The providers' documented payloads in `tests/fixtures/providers/`, read
//! as the tests compare with them.

use serde_json::Value;
use tool_core::provider::Provider;

/// A fixture from `tests/fixtures/providers/` (`media/...` for those of
/// results with media), parsed.
pub(crate) fn fixture(name: &str) -> Value {
    let path = format!(
        "{}/tests/fixtures/providers/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{path}: {error}"))
}

/// `(id, name, arguments)` of each call, for comparing with a fixture.
pub(crate) fn calls_of(
    provider: Provider,
    response: &Value,
) -> Vec<(Option<String>, String, Value)> {
    provider
        .parse_calls(response)
        .expect("a response with tool calls")
        .into_iter()
        .map(|call| {
            (
                call.id().map(str::to_owned),
                call.name().to_owned(),
                call.arguments().clone(),
            )
        })
        .collect()
}

pub(crate) fn some(id: &str) -> Option<String> {
    Some(id.to_owned())
}
