//! A tool that asks, served to clients of protocol 2026-07-28: its call is
//! answered `input_required`, the client calls again with its answers and
//! the sealed `requestState`, and the tool runs to its result; a state
//! altered, brought to another call, or sealed by another server is
//! refused; what the client does not take is not asked of it.

mod support;

#[path = "support/raw.rs"]
mod raw;

use raw::Raw;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tool_core::client::{ClientError, SampleRequest};
use tool_core::elicit::{Elicit, ElicitError, Elicitation};
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::McpServer;

/// A room and whether breakfast comes with it.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Booking {
    /// The room.
    room: String,
}

/// Book a stay, asking which room, then checking the name with the
/// client's model.
#[tool(asks, samples)]
async fn book(
    ctx: &ToolContext,
    /** Whose stay. */
    guest: String,
) -> Result<String, String> {
    let room = match ctx
        .elicit::<Booking>(format!("Which room for {guest}?"))
        .key("room")
        .await
        .map_err(|error: ElicitError| error.to_string())?
    {
        Elicitation::Accept(booking) => booking.room,
        _ => return Ok("not booked".to_owned()),
    };
    let checked = ctx
        .sample(
            SampleRequest::new(format!("Is {guest} a name?"))
                .max_tokens(5)
                .key("check"),
        )
        .await
        .map_err(|error: ClientError| error.to_string())?;
    Ok(format!(
        "booked the {room} room for {guest} ({})",
        checked.as_text().unwrap_or_default()
    ))
}

fn server() -> McpServer {
    McpServer::new(ToolRegistry::new().with(Book), ToolContext::new(())).with_config(
        tool_mcp::McpConfig::new()
            .with_request_state_keys([("k1", b"0123456789abcdef0123456789abcdef".to_vec())])
            .expect("a valid key"),
    )
}

/// A `tools/call` of `book` as a 2026-07-28 client sends it, taking
/// `capabilities`, with `extra` params.
async fn call(raw: &Raw, capabilities: Value, extra: Value) -> Value {
    let mut params = json!({
        "name": "book",
        "arguments": {"guest": "Ada"},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        }
    });
    if let (Some(params), Value::Object(extra)) = (params.as_object_mut(), extra) {
        params.extend(extra);
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let headers = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "book"),
    ];
    let reply = raw.post(&headers, &body.to_string()).await;
    if reply
        .header("content-type")
        .is_some_and(|kind| kind.starts_with("application/json"))
    {
        return serde_json::from_str(&reply.body).expect("JSON");
    }
    reply.answer()
}

fn both() -> Value {
    json!({"elicitation": {}, "sampling": {}})
}

#[tokio::test]
async fn each_question_is_a_round_and_the_answers_come_back_sealed() {
    let (address, stop) = support::serve_http(server()).await;
    let raw = Raw::new(address);
    let first = call(&raw, both(), json!({})).await;
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required");
    assert_eq!(
        result["inputRequests"],
        json!({"room": {"method": "elicitation/create", "params": {
            "mode": "form",
            "message": "Which room for Ada?",
            "requestedSchema": {"type": "object", "properties": {
                "room": {"type": "string", "description": "The room."}
            }, "required": ["room"]}
        }}})
    );
    let state = result["requestState"].as_str().expect("a state").to_owned();
    let room = json!({"room": {"action": "accept", "content": {"room": "blue"}}});
    let second = call(
        &raw,
        both(),
        json!({"inputResponses": room, "requestState": state}),
    )
    .await;
    let result = &second["result"];
    assert_eq!(result["resultType"], "input_required");
    assert_eq!(
        result["inputRequests"]["check"]["method"],
        "sampling/createMessage"
    );
    assert_eq!(
        result["inputRequests"]["check"]["params"]["messages"],
        json!([{"role": "user", "content": {"type": "text", "text": "Is Ada a name?"}}])
    );
    let state = result["requestState"].as_str().expect("a state").to_owned();
    let check = json!({"check": {"role": "assistant", "model": "m",
        "content": {"type": "text", "text": "yes"}}});
    let third = call(
        &raw,
        both(),
        json!({"inputResponses": check, "requestState": state}),
    )
    .await;
    assert_eq!(
        third["result"]["content"],
        json!([{"type": "text", "text": "booked the blue room for Ada (yes)"}])
    );
    // The state of another call (other arguments), or altered, is refused.
    let tampered = call(
        &raw,
        both(),
        json!({"inputResponses": check, "requestState": format!("{state}x")}),
    )
    .await;
    assert_eq!(tampered["error"]["code"], -32602);
    assert_eq!(
        tampered["error"]["message"],
        "the requestState is refused (request state failed integrity verification): call again without it, to start over"
    );
    stop.cancel();
}

#[tokio::test]
async fn a_state_sealed_by_another_server_or_for_other_arguments_is_refused() {
    let (address, stop) = support::serve_http(server()).await;
    let raw = Raw::new(address);
    let first = call(&raw, both(), json!({})).await;
    let state = first["result"]["requestState"]
        .as_str()
        .expect("a state")
        .to_owned();
    let other_key = McpServer::new(ToolRegistry::new().with(Book), ToolContext::new(()))
        .with_config(
            tool_mcp::McpConfig::new()
                .with_request_state_keys([("k2", b"another key, thirty-two bytes!!!".to_vec())])
                .expect("a valid key"),
        );
    let (other, other_stop) = support::serve_http(other_key).await;
    let refused = call(&Raw::new(other), both(), json!({"requestState": state})).await;
    assert_eq!(
        refused["error"]["message"],
        "the requestState is refused (request state was sealed with an unknown key): call again without it, to start over"
    );
    // The same server, the same state, other arguments.
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "book", "arguments": {"guest": "Grace"}, "requestState": state,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": both(),
        }
    }});
    let headers = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "book"),
    ];
    let reply = raw.post(&headers, &body.to_string()).await;
    let answer: Value = serde_json::from_str(&reply.body).unwrap_or_else(|_| reply.answer());
    assert_eq!(
        answer["error"]["message"],
        "the requestState is refused (request state failed integrity verification): call again without it, to start over"
    );
    stop.cancel();
    other_stop.cancel();
}

#[tokio::test]
async fn a_client_that_does_not_sample_is_refused_before_the_tool_runs() {
    let (address, stop) = support::serve_http(server()).await;
    let raw = Raw::new(address);
    let refused = call(&raw, json!({"elicitation": {}}), json!({})).await;
    assert_eq!(
        refused["error"],
        json!({
            "code": -32021,
            "message": "tool `book` asks the client's model (sampling), and this client declared no `sampling` capability",
            "data": {"requiredCapabilities": {"sampling": {}}}
        })
    );
    stop.cancel();
}

/// Delete a file.
#[tool(tier = Confirm)]
fn delete_file(
    /** Which. */
    path: String,
) -> String {
    format!("deleted {path}")
}

#[tokio::test]
async fn a_confirm_tool_is_approved_by_the_person_in_a_round() {
    let server = McpServer::new(ToolRegistry::new().with(DeleteFile), ToolContext::new(()));
    let (address, stop) = support::serve_http(server).await;
    let raw = Raw::new(address);
    let call = |extra: Value| {
        let mut params = json!({
            "name": "delete_file",
            "arguments": {"path": "notes.txt"},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
            }
        });
        if let (Some(params), Value::Object(extra)) = (params.as_object_mut(), extra) {
            params.extend(extra);
        }
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}).to_string()
    };
    let headers = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "delete_file"),
    ];
    let read = |reply: raw::Reply| -> Value {
        serde_json::from_str(&reply.body).unwrap_or_else(|_| reply.answer())
    };
    let asked = read(raw.post(&headers, &call(json!({}))).await);
    assert_eq!(
        asked["result"]["inputRequests"],
        json!({"approval": {"method": "elicitation/create", "params": {
            "mode": "form",
            "message": "Allow the tool `delete_file` to run with these arguments?\n{\n  \"path\": \"notes.txt\"\n}",
            "requestedSchema": {"type": "object", "properties": {}}
        }}})
    );
    let state = asked["result"]["requestState"].clone();
    let answered = |action: &str| {
        call(json!({
            "inputResponses": {"approval": {"action": action}},
            "requestState": state,
        }))
    };
    let approved = read(raw.post(&headers, &answered("accept")).await);
    assert_eq!(
        approved["result"]["content"],
        json!([{"type": "text", "text": "deleted notes.txt"}])
    );
    let declined = read(raw.post(&headers, &answered("decline")).await);
    assert_eq!(declined["result"]["isError"], true);
    assert_eq!(
        declined["result"]["content"][0]["text"],
        "the call to tool `delete_file` was denied: the person at the client declined it"
    );
    stop.cancel();
}
