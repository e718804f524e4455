//! A Responses response read: its function calls (and the searches the
//! application runs), and the model's turn, every output item.

use serde_json::Value;

use crate::provider::call::ProviderCall;
use crate::provider::call::{list, string_at, typed_call};
use crate::provider::listing::SEARCH_TOOL;

/// The output items of a response, or the items themselves.
fn output_items(response: &Value) -> Result<&[Value], String> {
    list(
        response,
        "output",
        "a response (with `output`) or its output items",
        false,
    )
}

pub(crate) fn parse_responses(response: &Value) -> Result<Vec<ProviderCall>, String> {
    let items = output_items(response)?;
    let mut calls = Vec::new();
    for (at, item) in items.iter().enumerate() {
        match item.get("type").and_then(Value::as_str) {
            Some("function_call") => calls.push(typed_call(
                item,
                &format!("`output[{at}]`"),
                "call_id",
                "arguments",
            )?),
            // A search the application runs: a call of its search tool
            // (the hosted search's, `execution: "server"`, ran already).
            Some("tool_search_call")
                if item.get("execution").and_then(Value::as_str) == Some("client") =>
            {
                let id = string_at(item, "call_id", &format!("`output[{at}]`"))?;
                let mut call = ProviderCall::new(
                    Some(id.to_owned()),
                    SEARCH_TOOL,
                    item.get("arguments").cloned().unwrap_or(Value::Null),
                );
                call.search = true;
                calls.push(call);
            }
            _ => {}
        }
    }
    Ok(calls)
}

pub(crate) fn responses_turn(response: &Value) -> Result<Vec<Value>, String> {
    Ok(output_items(response)?.to_vec())
}
