//! A tool that asks the person (`#[tool(asks)]`, `ctx.elicit`) served over
//! MCP: the question goes to the client as form elicitation with the
//! type's schema, and the person's accept, decline or cancel reach the
//! tool; a client that cannot be asked gives the tool a reason it reads.
//! Checked with rmcp's own client over a duplex pipe.

use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, ClientCapabilities, ClientConfig, ElicitRequestParams, ElicitResult,
    ElicitationAction, ElicitationCapability, FormElicitationCapability, Implementation,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tool_core::elicit::{Elicit, ElicitError, Elicitation};
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_mcp::McpServer;

/// What the guest chooses.
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
struct Booking {
    /// The room.
    room: Room,
    /// Breakfast included.
    #[serde(default)]
    breakfast: bool,
    /// Anything the hotel should know.
    note: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "snake_case")]
enum Room {
    /// Single, one bed.
    Single,
    /// Double, two beds.
    Double,
}

/// Book a room, asking the guest which.
#[tool(asks)]
async fn book_room(
    ctx: &ToolContext,
    /** The night. */
    night: String,
) -> Result<String, ElicitError> {
    Ok(
        match ctx
            .elicit::<Booking>(format!("Which room on {night}?"))
            .await?
        {
            Elicitation::Accept(booking) => format!(
                "booked a {:?} room on {night}, breakfast {}, note {:?}",
                booking.room, booking.breakfast, booking.note
            ),
            Elicitation::Decline => "the guest declined; do not ask again".to_owned(),
            Elicitation::Cancel => "the guest closed the question".to_owned(),
        },
    )
}

/// A client whose person answers each question with `answer` (and what it
/// was asked), or one that cannot be asked.
#[derive(Clone)]
struct Guest {
    answer: Option<ElicitResult>,
    asked: Arc<Mutex<Vec<(String, Value)>>>,
}

impl ClientHandler for Guest {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        if self.answer.is_some() {
            capabilities.elicitation =
                Some(ElicitationCapability::new().with_form(FormElicitationCapability::default()));
        }
        ClientConfig::new(capabilities, Implementation::new("guest", "1.0.0"))
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
        let schema = serde_json::to_value(requested_schema).expect("JSON");
        self.asked
            .lock()
            .expect("unpoisoned")
            .push((message, schema));
        Ok(self
            .answer
            .clone()
            .expect("asked only when it declared elicitation"))
    }
}

async fn connected(
    answer: Option<ElicitResult>,
) -> (
    RunningService<RoleClient, Guest>,
    Arc<Mutex<Vec<(String, Value)>>>,
) {
    let server = McpServer::new(ToolRegistry::new().with(BookRoom), ToolContext::new(()));
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    tokio::spawn(async move {
        let running = server.serve(server_io).await.expect("served");
        let _ = running.waiting().await;
    });
    let guest = Guest {
        answer,
        asked: Arc::default(),
    };
    let asked = Arc::clone(&guest.asked);
    (guest.serve(client_io).await.expect("connected"), asked)
}

async fn book(client: &RunningService<RoleClient, Guest>) -> (String, bool) {
    let Value::Object(arguments) = json!({"night": "2026-12-01"}) else {
        unreachable!()
    };
    let result = client
        .call_tool(CallToolRequestParams::new("book_room").with_arguments(arguments))
        .await
        .expect("answered");
    let text = result.content[0].as_text().expect("text").text.clone();
    (text, result.is_error == Some(true))
}

#[tokio::test]
async fn the_person_at_the_client_is_asked_with_the_types_schema() {
    let accepted = ElicitResult::new(ElicitationAction::Accept)
        .with_content(json!({"room": "double", "breakfast": true}));
    let (client, asked) = connected(Some(accepted)).await;
    assert_eq!(
        book(&client).await,
        (
            "booked a Double room on 2026-12-01, breakfast true, note None".to_owned(),
            false
        )
    );
    let asked = asked.lock().expect("unpoisoned").clone();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].0, "Which room on 2026-12-01?");
    assert_eq!(
        asked[0].1,
        json!({
            "type": "object",
            "properties": {
                "room": {
                    "type": "string",
                    "description": "The room.",
                    "oneOf": [
                        {"const": "single", "title": "Single, one bed."},
                        {"const": "double", "title": "Double, two beds."},
                    ],
                },
                "breakfast": {"type": "boolean", "description": "Breakfast included.", "default": false},
                "note": {"type": "string", "description": "Anything the hotel should know."},
            },
            "required": ["room"],
        })
    );
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn decline_and_cancel_reach_the_tool_as_values() {
    for (action, expected) in [
        (
            ElicitationAction::Decline,
            "the guest declined; do not ask again",
        ),
        (ElicitationAction::Cancel, "the guest closed the question"),
    ] {
        let (client, _) = connected(Some(ElicitResult::new(action))).await;
        assert_eq!(book(&client).await, (expected.to_owned(), false));
        client.cancel().await.expect("closed");
    }
}

#[tokio::test]
async fn a_client_that_takes_no_elicitation_gives_the_tool_the_reason() {
    let (client, asked) = connected(None).await;
    assert_eq!(
        book(&client).await,
        (
            "the person could not be asked: the MCP client does not take elicitation (it \
             declared no `elicitation` form capability)"
                .to_owned(),
            true
        )
    );
    assert!(asked.lock().expect("unpoisoned").is_empty());
    client.cancel().await.expect("closed");
}

#[tokio::test]
async fn an_answer_that_does_not_fit_is_asked_again_in_the_registrys_words() {
    let unfit = ElicitResult::new(ElicitationAction::Accept).with_content(json!({"room": "suite"}));
    let (client, asked) = connected(Some(unfit)).await;
    let why = "argument `room` at `/room`: expected one of `single`, `double`, got `suite`";
    assert_eq!(
        book(&client).await,
        (
            format!("the person's answer did not fit, after 3 asks: {why}"),
            true
        )
    );
    let messages: Vec<String> = asked
        .lock()
        .expect("unpoisoned")
        .iter()
        .map(|(message, _)| message.clone())
        .collect();
    let again = format!("Your answer did not fit: {why}\n\nWhich room on 2026-12-01?");
    assert_eq!(
        messages,
        ["Which room on 2026-12-01?".to_owned(), again.clone(), again]
    );
    client.cancel().await.expect("closed");
}
