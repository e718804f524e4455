//! What a mounted server asks the person while its tool runs (MCP
//! elicitation) is put to the person behind the call, as a local tool's
//! question is: to the calling context's asker, or, with none, parked in
//! the registry for the application to answer
//! ([`Questions::answer`](tool_core::registry::Questions::answer)). Over
//! 2026-07-28 the server asks through `input_required` and is called again
//! with the answers; over 2025-11-25 it asks on the call's stream, and
//! each question reaches only the person of the call it belongs to. Where
//! the mount says so, what the server asks of the client's model
//! (sampling) and its roots go to the calling context's client. The
//! server is a tool-mcp server over streamable HTTP.

use std::sync::Arc;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use support::serve_http;
use tool_core::client::{ClientError, ClientRequests, Root, SampleRequest, Sampled};
use tool_core::elicit::{Answer, Elicit, ElicitError, Elicitation};
use tool_core::toolset::RegistryHandle;
use tool_core::{BoxFuture, ToolContext, ToolRegistry, tool};
use tool_mcp::McpServer;
use tool_mcp::mount::{Mount, Mounted, Protocol};

mod support;

/// Longer than any answer here takes, unless something is broken.
const PATIENCE: Duration = Duration::from_secs(10);

/// How many guests.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Party {
    /// How many.
    guests: u8,
    /// Seated outside.
    #[serde(default)]
    terrace: bool,
}

/// Book a table, asking the guest for how many.
#[tool(asks)]
async fn book_table(ctx: &ToolContext) -> Result<String, ElicitError> {
    Ok(match ctx.elicit::<Party>("For how many?").await? {
        Elicitation::Accept(party) if party.terrace => {
            format!("a table for {} outside", party.guests)
        }
        Elicitation::Accept(party) => format!("a table for {}", party.guests),
        Elicitation::Decline => "the guest declined".to_owned(),
        Elicitation::Cancel => "the guest closed the question".to_owned(),
    })
}

/// Name the dish, asking the client's model.
#[tool(samples)]
async fn name_dish(ctx: &ToolContext, dish: String) -> Result<String, ClientError> {
    let named = ctx
        .sample(
            SampleRequest::new(format!("Name {dish}."))
                .system("One word.")
                .max_tokens(5),
        )
        .await?;
    Ok(format!(
        "{} ({})",
        named.as_text().unwrap_or_default(),
        named.model
    ))
}

/// Where the client works (a tool that asks its client, for roots too,
/// says it asks).
#[tool(asks)]
async fn workspace(ctx: &ToolContext) -> Result<String, ClientError> {
    let roots = ctx.roots().await?;
    Ok(roots
        .iter()
        .map(|root| format!("{} {}", root.uri, root.name.as_deref().unwrap_or("-")))
        .collect::<Vec<_>>()
        .join(", "))
}

/// The client of the person calling: a model that answers what it was
/// asked, and one root.
struct Kitchen;

impl ClientRequests for Kitchen {
    fn sample<'a>(
        &'a self,
        request: &'a SampleRequest,
    ) -> BoxFuture<'a, Result<Sampled, ClientError>> {
        let asked = format!(
            "{:?} / {:?} / {}",
            request
                .messages()
                .first()
                .map(|message| message.content().clone()),
            request.system_prompt(),
            request.max_tokens_or_default()
        );
        Box::pin(async move { Ok(Sampled::text("chef-1", asked)) })
    }

    fn roots(&self) -> BoxFuture<'_, Result<Vec<Root>, ClientError>> {
        Box::pin(async {
            Ok(vec![Root {
                uri: "file:///kitchen".to_owned(),
                name: Some("kitchen".to_owned()),
            }])
        })
    }
}

/// The server's tools, mounted in a new registry in `protocol`, as
/// `mount` sets the mount up.
async fn mounted_with(
    protocol: Protocol,
    mount: impl FnOnce(Mount) -> Mount,
) -> (RegistryHandle, Mounted) {
    let tools = ToolRegistry::new()
        .with(BookTable)
        .with(NameDish)
        .with(Workspace);
    let server = McpServer::new(tools, ToolContext::new(()));
    let (address, _stop) = serve_http(server).await;
    let handle: RegistryHandle = RegistryHandle::new(ToolRegistry::new());
    let mounted = mount(Mount::http("tables", format!("http://{address}/mcp")))
        .protocol(protocol)
        .mount(&handle)
        .await
        .expect("mounted");
    (handle, mounted)
}

/// The server's tools, mounted in a new registry in `protocol`.
async fn mounted(protocol: Protocol) -> (RegistryHandle, Mounted) {
    mounted_with(protocol, |mount| mount).await
}

/// A context whose person answers `answer`.
fn answering(answer: Answer) -> ToolContext {
    ToolContext::builder(()).answers([answer]).build()
}

#[tokio::test]
async fn the_servers_question_is_put_to_the_person_behind_the_call() {
    for protocol in [Protocol::Newest, Protocol::V2025_11_25] {
        let (handle, _mounted) = mounted(protocol).await;
        let ctx = answering(Answer::Accept(json!({"guests": 4, "terrace": true})));
        let booked = handle.call(&ctx, "book_table", json!({})).await;
        assert_eq!(booked.model_text(), "a table for 4 outside", "{protocol:?}");
        let ctx = answering(Answer::Decline);
        let declined = handle.call(&ctx, "book_table", json!({})).await;
        assert_eq!(declined.model_text(), "the guest declined", "{protocol:?}");
    }
}

#[tokio::test]
async fn with_no_one_to_ask_the_question_waits_in_the_registry() {
    for protocol in [Protocol::Newest, Protocol::V2025_11_25] {
        let (handle, _mounted) = mounted(protocol).await;
        let registry = handle.current();
        let mut questions = registry.questions().listen(&ToolContext::new(()));
        let call = tokio::spawn({
            let handle = handle.clone();
            async move {
                handle
                    .call(&ToolContext::new(()), "book_table", json!({}))
                    .await
            }
        });
        let question = tokio::time::timeout(PATIENCE, questions.next())
            .await
            .expect("the question is parked");
        assert_eq!(question.message(), "For how many?");
        assert_eq!(question.tool(), "book_table");
        // Answered as a local tool's: what the server's form leaves out
        // takes its default there.
        registry
            .questions()
            .answer(question.id(), Answer::Accept(json!({"guests": 2})))
            .await
            .expect("answered");
        let booked = tokio::time::timeout(PATIENCE, call)
            .await
            .expect("in time")
            .expect("the call ran");
        assert_eq!(booked.model_text(), "a table for 2", "{protocol:?}");
    }
}

#[tokio::test]
async fn an_answer_that_does_not_fit_the_servers_form_is_asked_again() {
    let (handle, _mounted) = mounted(Protocol::Newest).await;
    let ctx = ToolContext::builder(())
        .answers([
            Answer::Accept(json!({"guests": "four"})),
            Answer::Accept(json!({"guests": 4})),
        ])
        .build();
    let booked = handle.call(&ctx, "book_table", json!({})).await;
    assert_eq!(booked.model_text(), "a table for 4");
}

#[tokio::test]
async fn each_question_reaches_the_person_of_its_own_call() {
    // Over 2025-11-25 the server's questions come apart from the calls:
    // each is matched to the call whose stream carried it.
    let (handle, _mounted) = mounted(Protocol::V2025_11_25).await;
    let handle = Arc::new(handle);
    let calls = (1..=6_u8).map(|guests| {
        let handle = Arc::clone(&handle);
        tokio::spawn(async move {
            let ctx = answering(Answer::Accept(json!({"guests": guests})));
            let booked = handle.call(&ctx, "book_table", json!({})).await;
            (guests, booked.model_text().to_string())
        })
    });
    for call in calls {
        let (guests, booked) = tokio::time::timeout(PATIENCE, call)
            .await
            .expect("in time")
            .expect("the call ran");
        assert_eq!(booked, format!("a table for {guests}"));
    }
}

#[tokio::test]
async fn the_servers_sampling_and_roots_go_to_the_callers_client_where_the_mount_says_so() {
    for protocol in [Protocol::Newest, Protocol::V2025_11_25] {
        let (handle, _mounted) = mounted_with(protocol, |mount| mount.sampling().roots()).await;
        let ctx = ToolContext::builder(()).client(Kitchen).build();
        let named = handle
            .call(&ctx, "name_dish", json!({"dish": "soup"}))
            .await;
        assert_eq!(
            named.model_text(),
            "Some(Text(\"Name soup.\")) / Some(\"One word.\") / 5 (chef-1)",
            "{protocol:?}"
        );
        let roots = handle.call(&ctx, "workspace", json!({})).await;
        assert_eq!(
            roots.model_text(),
            "file:///kitchen kitchen",
            "{protocol:?}"
        );
    }
}

#[tokio::test]
async fn without_the_mount_saying_so_the_server_is_told_it_has_no_sampling() {
    let (handle, _mounted) = mounted(Protocol::V2025_11_25).await;
    let ctx = ToolContext::builder(()).client(Kitchen).build();
    let named = handle
        .call(&ctx, "name_dish", json!({"dish": "soup"}))
        .await;
    assert!(named.is_error());
    assert_eq!(
        named.model_text(),
        "tool `name_dish` is not available: it asks the client's model (sampling), and this MCP \
         client does not take sampling"
    );
}
