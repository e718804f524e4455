//! Who approves a `Confirm` call over MCP, and what each caller is shown:
//! a plain `#[tool]` runs unasked; a `Confirm` tool asks the person at the
//! client when the client takes elicitation, else the server's hook, else
//! the registry's, and is denied with a text for the developer when there
//! is none; `tools/list` leaves out what the caller may not call.
//! Checked with rmcp's own client over a duplex pipe and over HTTP.

mod support;

use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationAction, ElicitationCapability, FormElicitationCapability,
    Implementation,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::{Value, json};
use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest};
use tool_core::registry::RegistryBuilder;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::{BearerTokens, McpServer};

/// Add two numbers.
#[tool(read_only)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Delete a note.
#[tool(tier = Confirm)]
fn delete_note(id: u32) -> String {
    format!("deleted {id}")
}

/// Read a note.
#[tool(read_only, scopes = ["notes:read"])]
fn read_note(id: u32) -> String {
    format!("note {id}")
}

fn registry() -> ToolRegistry {
    ToolRegistry::new()
        .with(Add)
        .with(DeleteNote)
        .with(ReadNote)
}

/// A client whose person answers every question with `answer`, or one that
/// cannot be asked at all.
#[derive(Clone)]
struct Person {
    answer: Option<ElicitationAction>,
    asked: Arc<Mutex<Vec<String>>>,
}

impl Person {
    fn answering(answer: ElicitationAction) -> Self {
        Self {
            answer: Some(answer),
            asked: Arc::default(),
        }
    }

    fn unreachable() -> Self {
        Self {
            answer: None,
            asked: Arc::default(),
        }
    }

    fn asked(&self) -> Vec<String> {
        self.asked
            .lock()
            .expect("no test panicked holding it")
            .clone()
    }
}

impl ClientHandler for Person {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        if self.answer.is_some() {
            capabilities.elicitation =
                Some(ElicitationCapability::new().with_form(FormElicitationCapability::default()));
        }
        ClientConfig::new(capabilities, Implementation::new("person", "1.0.0"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } = request
        else {
            panic!("a form question: {request:?}");
        };
        assert!(requested_schema.properties.is_empty(), "nothing to fill in");
        self.asked
            .lock()
            .expect("no test panicked holding it")
            .push(message);
        let answer = self
            .answer
            .clone()
            .expect("asked only when it declared elicitation");
        Ok(match answer {
            ElicitationAction::Accept => ElicitResult::new(answer).with_content(json!({})),
            _ => ElicitResult::new(answer),
        })
    }
}

/// Lets ids under 100 be deleted.
struct SmallIds;

impl ApprovalHook<()> for SmallIds {
    async fn approve(&self, request: &ApprovalRequest<'_, ()>) -> Approval {
        match request.arguments["id"].as_u64() {
            Some(id) if id < 100 => Approval::Approve,
            _ => Approval::deny("notes from 100 on are kept"),
        }
    }
}

async fn over_pipe(server: McpServer, person: Person) -> RunningService<RoleClient, Person> {
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let running = server.serve(server_io).await.expect("served");
        let _ = running.waiting().await;
    });
    person.serve(client_io).await.expect("connected")
}

async fn call(
    client: &RunningService<RoleClient, Person>,
    name: &str,
    args: Value,
) -> CallToolResult {
    let Value::Object(args) = args else {
        panic!("arguments are an object")
    };
    client
        .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(args))
        .await
        .expect("a result, not a protocol error")
}

fn text(result: &CallToolResult) -> String {
    let block = serde_json::to_value(&result.content[0]).expect("a block is JSON");
    block["text"].as_str().expect("a text block").to_owned()
}

fn denied(tool: &str, reason: &str) -> String {
    format!("the call to tool `{tool}` was denied: {reason}")
}

const NO_ONE_TO_ASK: &str = "it needs approval (tier `Confirm`), and this MCP server can ask no one: the client does not take elicitation, and the server has no approval hook (set one with `McpServer::with_approval`); do not call it again";

#[tokio::test]
async fn a_plain_tool_runs_over_mcp_without_anyone_asked() {
    let person = Person::unreachable();
    let client = over_pipe(
        McpServer::new(registry(), ToolContext::new(())),
        person.clone(),
    )
    .await;
    let result = call(&client, "add", json!({"a": 2, "b": 3})).await;
    assert_eq!(
        (text(&result), result.is_error),
        ("5".to_owned(), Some(false))
    );
    assert!(person.asked().is_empty());
}

#[tokio::test]
async fn a_confirm_call_asks_the_person_at_a_client_that_takes_elicitation() {
    for (answer, expected, is_error) in [
        (ElicitationAction::Accept, "deleted 7".to_owned(), false),
        (
            ElicitationAction::Decline,
            denied("delete_note", "the person at the client declined it"),
            true,
        ),
        (
            ElicitationAction::Cancel,
            denied(
                "delete_note",
                "the person at the client dismissed the question",
            ),
            true,
        ),
    ] {
        let person = Person::answering(answer.clone());
        // The person is asked even where the server has a hook of its own.
        let server = McpServer::new(registry(), ToolContext::new(())).with_approval(SmallIds);
        let client = over_pipe(server, person.clone()).await;
        let result = call(&client, "delete_note", json!({"id": 7})).await;
        assert_eq!(
            (text(&result), result.is_error),
            (expected, Some(is_error)),
            "{answer:?}"
        );
        assert_eq!(
            person.asked(),
            ["Allow the tool `delete_note` to run with these arguments?\n{\n  \"id\": 7\n}"]
        );
    }
}

#[tokio::test]
async fn a_client_that_cannot_be_asked_gets_the_servers_hook_then_the_registrys() {
    let server = McpServer::new(registry(), ToolContext::new(())).with_approval(SmallIds);
    let client = over_pipe(server, Person::unreachable()).await;
    assert_eq!(
        text(&call(&client, "delete_note", json!({"id": 7})).await),
        "deleted 7"
    );
    assert_eq!(
        text(&call(&client, "delete_note", json!({"id": 700})).await),
        denied("delete_note", "notes from 100 on are kept")
    );

    let registry = RegistryBuilder::from(registry()).approval(SmallIds).build();
    let client = over_pipe(
        McpServer::new(registry, ToolContext::new(())),
        Person::unreachable(),
    )
    .await;
    assert_eq!(
        text(&call(&client, "delete_note", json!({"id": 700})).await),
        denied("delete_note", "notes from 100 on are kept")
    );
}

#[tokio::test]
async fn with_no_one_to_ask_a_confirm_call_is_denied_saying_what_to_set() {
    let person = Person::unreachable();
    let client = over_pipe(
        McpServer::new(registry(), ToolContext::new(())),
        person.clone(),
    )
    .await;
    let result = call(&client, "delete_note", json!({"id": 7})).await;
    assert_eq!(
        (text(&result), result.is_error),
        (denied("delete_note", NO_ONE_TO_ASK), Some(true))
    );
}

fn names(tools: &[rmcp::model::Tool]) -> Vec<String> {
    tools.iter().map(|tool| tool.name.to_string()).collect()
}

#[tokio::test]
async fn tools_list_shows_each_caller_only_what_it_may_call() {
    // Over a pipe, the context's scopes are the caller's.
    let client = over_pipe(
        McpServer::new(registry(), ToolContext::new(())),
        Person::unreachable(),
    )
    .await;
    let listed = client.list_all_tools().await.expect("listed");
    assert_eq!(names(&listed), ["add", "delete_note"]);
    // Calling the tool anyway gets the refusal it always got.
    let refused = call(&client, "read_note", json!({"id": 1})).await;
    assert_eq!(
        (text(&refused), refused.is_error),
        (
            "tool `read_note` requires the scope `notes:read`, which this caller does not have; do not call it again".to_owned(),
            Some(true)
        )
    );
    let reader = ToolContext::builder(()).scopes(["notes:read"]).build();
    let client = over_pipe(McpServer::new(registry(), reader), Person::unreachable()).await;
    let listed = client.list_all_tools().await.expect("listed");
    assert_eq!(names(&listed), ["add", "delete_note", "read_note"]);

    // Over HTTP, the token's scopes are; pages count only what is shown.
    let tokens = BearerTokens::new()
        .with_token("reader", ["notes:read"])
        .with_token("guest", Vec::<String>::new());
    let server = McpServer::new(registry(), ToolContext::new(())).with_config(
        tool_mcp::McpConfig::new()
            .with_bearer_auth(tokens)
            .with_page_size(2),
    );
    let (address, stop) = support::serve_http(server).await;
    for (token, expected) in [
        ("reader", vec!["add", "delete_note", "read_note"]),
        ("guest", vec!["add", "delete_note"]),
    ] {
        let transport = StreamableHttpClientTransport::from_config(
            rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig::with_uri(
                format!("http://{address}/mcp"),
            )
            .auth_header(token),
        );
        let client = Person::unreachable()
            .serve(transport)
            .await
            .expect("connected");
        let first = client.list_tools(None).await.expect("listed");
        assert_eq!(names(&first.tools), expected[..2], "{token}");
        assert_eq!(first.next_cursor.is_some(), expected.len() > 2, "{token}");
        let all = client.list_all_tools().await.expect("listed");
        assert_eq!(names(&all), expected, "{token}");
        let _ = client.cancel().await;
    }
    stop.cancel();
}

#[tokio::test]
async fn a_client_of_2026_07_28_is_asked_in_a_round_and_one_that_cannot_be_gets_the_servers_hook() {
    // That protocol forbids a server's requests to its client: the person
    // is asked in the call's `input_required` round, which rmcp's client
    // answers and retries.
    let person = Person::answering(ElicitationAction::Accept);
    let server = McpServer::new(registry(), ToolContext::new(())).with_approval(SmallIds);
    let (address, stop) = support::serve_http(server).await;
    let client = support::connect_2026(person.clone(), address).await;
    assert_eq!(
        text(&call(&client, "delete_note", json!({"id": 700})).await),
        "deleted 700"
    );
    assert_eq!(
        person.asked(),
        ["Allow the tool `delete_note` to run with these arguments?\n{\n  \"id\": 700\n}"]
    );
    // A client that takes no elicitation: the server's hook decides.
    let unreachable = Person::unreachable();
    let client = support::connect_2026(unreachable.clone(), address).await;
    assert_eq!(
        text(&call(&client, "delete_note", json!({"id": 700})).await),
        denied("delete_note", "notes from 100 on are kept")
    );
    assert!(unreachable.asked().is_empty());
    stop.cancel();
}
