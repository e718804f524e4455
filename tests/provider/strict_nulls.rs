//! OpenAI's strict mode makes every argument required and the optional ones
//! nullable, so a model in strict mode sends `null` where it means "left
//! out". This proves that such a `null` for an optional argument gives
//! exactly the result of leaving the argument out, for `#[serde(default)]`,
//! `#[serde(default = "...")]` and `Option` arguments, at the top level and
//! inside a nested struct, both through `ToolRegistry::call` and through
//! `respond` with a strict Chat Completions response; and that a `null` for
//! a required argument is still an error the model reads.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_core::provider::Provider;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};

const STRICT_CHAT: Provider = Provider::OpenAiChat { strict: true };

fn relevance() -> String {
    "relevance".to_owned()
}

/// A page of results.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
struct Page {
    /// The first result, 0-based.
    #[serde(default)]
    offset: u32,
}

/// Search the catalogue.
#[tool(tier = Observe)]
fn search(
    /// What to look for.
    query: String,
    /// At most this many results; no limit when left out.
    #[serde(default)]
    limit: u32,
    /// The order of the results.
    #[serde(default = "relevance")]
    sort: String,
    /// Only this category.
    category: Option<String>,
    /// Which page.
    page: Option<Page>,
) -> String {
    format!("query={query} limit={limit} sort={sort} category={category:?} page={page:?}")
}

fn registry() -> ToolRegistry {
    ToolRegistry::new().with(Search)
}

async fn call(arguments: Value) -> ToolResult {
    registry()
        .call(&ToolContext::new(()), "search", arguments)
        .await
}

/// A strict Chat Completions response calling `search` with `arguments`,
/// sent as the JSON string OpenAI sends.
fn strict_chat_response(arguments: &str) -> Value {
    json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "gpt-4o-mini",
        "choices": [{
            "index": 0,
            "message": {
                "role": "assistant",
                "content": null,
                "tool_calls": [{
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "search", "arguments": arguments}
                }]
            },
            "finish_reason": "tool_calls"
        }]
    })
}

/// The tool message `respond` gives for a strict Chat response.
async fn reply_to(arguments: &str) -> Vec<Value> {
    let response = strict_chat_response(arguments);
    let turn = STRICT_CHAT
        .respond(&registry(), &ToolContext::new(()), &response)
        .await
        .expect("a strict Chat Completions response");
    turn.reply().to_vec()
}

#[test]
fn the_strict_definition_makes_every_optional_argument_nullable() {
    // Why the model sends `null`: every property is required, and the
    // optional ones take `null`, down into `Page`. Defaults are not allowed
    // in strict mode, so they move into the descriptions.
    let registry = registry();
    let definitions = STRICT_CHAT.definitions(&registry).unwrap();
    assert!(definitions.not_strict().is_empty());
    assert_eq!(
        definitions.as_json()[0]["function"]["parameters"],
        json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "query": {"type": "string", "description": "What to look for."},
                "limit": {
                    "type": ["integer", "null"],
                    "description": "At most this many results; no limit when left out. (default: 0)",
                    "minimum": 0
                },
                "sort": {
                    "type": ["string", "null"],
                    "description": "The order of the results. (default: \"relevance\")"
                },
                "category": {"type": ["string", "null"], "description": "Only this category."},
                "page": {
                    "anyOf": [
                        {
                            "type": "object",
                            "description": "A page of results.",
                            "properties": {
                                "offset": {
                                    "type": ["integer", "null"],
                                    "description": "The first result, 0-based. (default: 0)",
                                    "minimum": 0
                                }
                            },
                            "required": ["offset"],
                            "additionalProperties": false
                        },
                        {"type": "null"}
                    ],
                    "description": "Which page."
                }
            },
            "required": ["query", "limit", "sort", "category", "page"]
        })
    );
}

#[tokio::test]
async fn null_for_an_optional_argument_is_the_argument_left_out() {
    let left_out = call(json!({"query": "rust"})).await;
    assert_eq!(
        left_out.model_text(),
        "query=rust limit=0 sort=relevance category=None page=None"
    );
    let nulls = call(json!({
        "query": "rust", "limit": null, "sort": null, "category": null, "page": null
    }))
    .await;
    assert_eq!(nulls, left_out);
}

#[tokio::test]
async fn null_inside_an_optional_struct_is_the_field_left_out() {
    let left_out = call(json!({"query": "rust", "page": {}})).await;
    assert_eq!(
        left_out.model_text(),
        "query=rust limit=0 sort=relevance category=None page=Some(Page { offset: 0 })"
    );
    let nulls = call(json!({"query": "rust", "page": {"offset": null}})).await;
    assert_eq!(nulls, left_out);
}

#[tokio::test]
async fn values_beside_nulls_are_kept() {
    let result = call(json!({
        "query": "rust", "limit": 5, "sort": null, "category": "books", "page": {"offset": 10}
    }))
    .await;
    assert_eq!(
        result.model_text(),
        "query=rust limit=5 sort=relevance category=Some(\"books\") page=Some(Page { offset: 10 })"
    );
}

#[tokio::test]
async fn a_strict_chat_response_with_nulls_gets_the_reply_of_one_without() {
    let with_nulls = reply_to(
        r#"{"query":"rust","limit":null,"sort":null,"category":null,"page":{"offset":null}}"#,
    )
    .await;
    let without = reply_to(r#"{"query":"rust","page":{}}"#).await;
    assert_eq!(with_nulls, without);
    assert_eq!(
        with_nulls,
        [json!({
            "role": "tool",
            "tool_call_id": "call_1",
            "content": "query=rust limit=0 sort=relevance category=None page=Some(Page { offset: 0 })"
        })]
    );
}

#[tokio::test]
async fn null_for_a_required_argument_is_still_an_error() {
    let result = call(json!({
        "query": null, "limit": null, "sort": null, "category": null, "page": null
    }))
    .await;
    assert!(result.is_error());
    assert_eq!(
        result.model_text(),
        "invalid arguments for tool `search`: argument `query` at `/query`: expected a string, got null. Correct the arguments and call the tool again."
    );

    let reply =
        reply_to(r#"{"query":null,"limit":null,"sort":null,"category":null,"page":null}"#).await;
    assert_eq!(reply[0]["content"], json!(result.model_text()));
}
