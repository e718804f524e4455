//! What the scripted models check of the results each provider's loop
//! sends back: the provider's shape, the calls' order, the model's ids.

use serde_json::Value;

use super::{CALLED, REFUSED, TOOL_CALL_IDS, TOOL_USE_IDS};

/// OpenAI: one `tool` message per call, each with its call's id and text.
pub(super) fn check_openai_results(results: &[Value]) -> Result<(), String> {
    for (at, (message, id)) in results.iter().zip(TOOL_CALL_IDS).enumerate() {
        let fits = message["role"] == "tool"
            && message["tool_call_id"] == id
            && message["content"]
                .as_str()
                .is_some_and(|text| !text.is_empty());
        if !fits {
            return Err(format!(
                "result {} must be a `tool` message answering `{id}` with its text in \
                 `content`; got {message}",
                at + 1
            ));
        }
    }
    Ok(())
}

/// Anthropic: one user message of `tool_result` blocks, `is_error` on the
/// refusal.
pub(super) fn check_anthropic_results(results: &[Value]) -> Result<(), String> {
    let message = &results[0];
    let blocks = message["content"]
        .as_array()
        .filter(|blocks| message["role"] == "user" && blocks.len() == TOOL_USE_IDS.len());
    let Some(blocks) = blocks else {
        return Err(format!(
            "after the model's turn, one user message with three `tool_result` \
             blocks must follow; got {message}"
        ));
    };
    for (at, block) in blocks.iter().enumerate() {
        let id = TOOL_USE_IDS[at];
        let fits = block["type"] == "tool_result"
            && block["tool_use_id"] == id
            && !block["content"].is_null()
            && (block["is_error"] == true) == REFUSED[at];
        if !fits {
            let error = if REFUSED[at] {
                "with `is_error: true`"
            } else {
                "without `is_error`"
            };
            return Err(format!(
                "block {} must be the `tool_result` of `{id}`, {error}; got {block}",
                at + 1
            ));
        }
    }
    Ok(())
}

/// Gemini: one user content of `functionResponse` parts, named for the
/// calls, `output` or `error`.
pub(super) fn check_gemini_results(results: &[Value]) -> Result<(), String> {
    let content = &results[0];
    let parts = content["parts"]
        .as_array()
        .filter(|parts| content["role"] == "user" && parts.len() == REFUSED.len());
    let Some(parts) = parts else {
        return Err(format!(
            "after the model's turn, one user content with three `functionResponse` \
             parts must follow; got {content}"
        ));
    };
    for (at, part) in parts.iter().enumerate() {
        let name = CALLED[at];
        let key = if REFUSED[at] { "error" } else { "output" };
        let response = &part["functionResponse"];
        let fits = response["name"] == name
            && response["response"].get(key).is_some()
            && response["response"]
                .as_object()
                .is_some_and(|r| r.len() == 1);
        if !fits {
            return Err(format!(
                "part {} must be the `functionResponse` of `{name}` with `response.{key}`; \
                 got {part}",
                at + 1
            ));
        }
    }
    Ok(())
}
