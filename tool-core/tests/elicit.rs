//! A tool asks the person a question (`ctx.elicit`), answered through the
//! registry: each way a question ends reaches the tool as the value or the
//! error it matches on, with the text a model reads.

use std::sync::Arc;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tool_core::elicit::{Answer, AnswerError, Elicit, ElicitError, Elicitation};
use tool_core::store::MemoryStore;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};

/// What the guest chooses.
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
struct Booking {
    /// The room.
    room: Room,
    /// Breakfast included.
    #[serde(default)]
    breakfast: bool,
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
#[tool(asks, timeout = "1s")]
async fn book_room(
    ctx: &ToolContext,
    /** The night. */
    night: String,
) -> Result<String, ElicitError> {
    let asked = ctx
        .elicit::<Booking>(format!("Which room on {night}?"))
        .timeout(Duration::from_secs(3));
    Ok(match asked.await? {
        Elicitation::Accept(booking) => format!(
            "booked a {:?} room on {night}, breakfast {}",
            booking.room, booking.breakfast
        ),
        Elicitation::Decline => "the guest declined; do not ask again".to_owned(),
        Elicitation::Cancel => "the guest closed the question".to_owned(),
    })
}

/// Asks, with a short time to answer.
#[tool(asks)]
async fn quick_question(ctx: &ToolContext) -> Result<String, ElicitError> {
    let asked = ctx
        .elicit::<Booking>("Quick: which room?")
        .timeout(Duration::from_millis(300));
    Ok(format!("{:?}", asked.await?.accepted()))
}

/// Asks from a helper, without saying it asks.
#[tool]
async fn sneaky(ctx: &ToolContext) -> Result<String, ElicitError> {
    ask_from_a_helper(ctx).await
}

async fn ask_from_a_helper(ctx: &ToolContext) -> Result<String, ElicitError> {
    Ok(format!(
        "{:?}",
        ctx.elicit::<Booking>("Which?").await?.accepted()
    ))
}

fn registry() -> Arc<ToolRegistry> {
    Arc::new(
        ToolRegistry::new()
            .with(BookRoom)
            .with(QuickQuestion)
            .with(Sneaky),
    )
}

/// Calls `tool` in a task of its own: the call waits for its answer.
fn call(
    registry: &Arc<ToolRegistry>,
    ctx: ToolContext,
    tool: &str,
    arguments: serde_json::Value,
) -> tokio::task::JoinHandle<ToolResult> {
    let registry = Arc::clone(registry);
    let tool = tool.to_owned();
    tokio::spawn(async move { registry.call(&ctx, &tool, arguments).await })
}

#[tokio::test]
async fn accept_decline_and_cancel_each_reach_the_tool() {
    let registry = registry();
    let mut questions = registry.questions().listen(&ToolContext::new(()));
    for (answer, expected) in [
        (
            Answer::Accept(json!({"room": "double", "breakfast": true})),
            "booked a Double room on 2026-12-01, breakfast true",
        ),
        (Answer::Decline, "the guest declined; do not ask again"),
        (Answer::Cancel, "the guest closed the question"),
    ] {
        let running = call(
            &registry,
            ToolContext::new(()),
            "book_room",
            json!({"night": "2026-12-01"}),
        );
        let question = questions.next().await;
        assert_eq!(question.message(), "Which room on 2026-12-01?");
        assert_eq!(question.tool(), "book_room");
        assert_eq!(question.asks_left(), 3);
        assert_eq!(
            question.schema()["properties"]["room"]["oneOf"][0]["const"],
            "single"
        );
        assert_eq!(
            registry
                .questions()
                .open(&ToolContext::new(()))
                .await
                .expect("read"),
            std::slice::from_ref(&question)
        );
        registry
            .questions()
            .answer(question.id(), answer)
            .await
            .expect("answered");
        let result = running.await.expect("joined");
        assert_eq!(result.model_text(), expected);
        assert!(!result.is_error());
        // Answered once.
        let again = registry
            .questions()
            .answer(question.id(), Answer::Decline)
            .await;
        assert_eq!(
            again.map_err(|error| error.to_string()),
            Err(format!(
                "no question waits for an answer under the id `{}`",
                question.id()
            ))
        );
    }
    assert!(
        registry
            .questions()
            .open(&ToolContext::new(()))
            .await
            .expect("read")
            .is_empty()
    );
}

#[tokio::test]
async fn an_answer_that_does_not_fit_is_refused_and_the_question_waits() {
    let registry = registry();
    let mut questions = registry.questions().listen(&ToolContext::new(()));
    let running = call(
        &registry,
        ToolContext::new(()),
        "book_room",
        json!({"night": "tonight"}),
    );
    let question = questions.next().await;
    let refused = registry
        .questions()
        .answer(question.id(), Answer::Accept(json!({"room": "suite"})))
        .await
        .expect_err("refused");
    assert!(matches!(refused, AnswerError::Invalid { .. }));
    assert_eq!(
        refused.to_string(),
        format!(
            "the answer to question `{}` does not fit: argument `room` at `/room`: expected one \
             of `single`, `double`, got `suite`",
            question.id()
        )
    );
    registry
        .questions()
        .answer(question.id(), Answer::Accept(json!({"room": "single"})))
        .await
        .expect("answered");
    assert_eq!(
        running.await.expect("joined").model_text(),
        "booked a Single room on tonight, breakfast false"
    );
}

#[tokio::test]
async fn a_question_out_of_time_ends_the_asking_and_refuses_a_late_answer() {
    let registry = registry();
    let mut questions = registry.questions().listen(&ToolContext::new(()));
    let running = call(&registry, ToolContext::new(()), "quick_question", json!({}));
    let question = questions.next().await;
    let result = running.await.expect("joined");
    assert!(result.is_error());
    assert_eq!(
        result.model_text(),
        "the person did not answer within 300ms"
    );
    tokio::time::sleep(Duration::from_millis(50)).await;
    let late = registry
        .questions()
        .answer(question.id(), Answer::Decline)
        .await;
    assert_eq!(
        late.map_err(|error| error.to_string()),
        Err(format!(
            "the question `{}` no longer waits for an answer: no answer came in time",
            question.id()
        ))
    );
}

#[tokio::test]
async fn a_call_cancelled_while_it_asks_gets_cancelled() {
    let registry = registry();
    let mut questions = registry.questions().listen(&ToolContext::new(()));
    let ctx = ToolContext::new(());
    let token = ctx.cancellation().clone();
    let running = call(&registry, ctx, "book_room", json!({"night": "x"}));
    questions.next().await;
    let question = registry
        .questions()
        .open(&ToolContext::new(()))
        .await
        .expect("read")
        .pop()
        .expect("open");
    token.cancel();
    let result = running.await.expect("joined");
    assert!(result.is_error());
    assert_eq!(
        result.model_text(),
        "the call was cancelled while it waited for the person's answer"
    );
    // Withdrawn: an answer now is refused, saying why.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let late = registry
        .questions()
        .answer(question.id(), Answer::Decline)
        .await;
    assert_eq!(
        late.map_err(|error| error.to_string()),
        Err(format!(
            "the question `{}` no longer waits for an answer: it was withdrawn: the tool stopped \
             waiting for it (its time ran out, or its call was cancelled)",
            question.id()
        ))
    );
}

#[tokio::test]
async fn the_time_a_question_waits_does_not_count_against_the_tools_timeout() {
    let registry = registry();
    let mut questions = registry.questions().listen(&ToolContext::new(()));
    // `book_room` may run for 1 s; its question is answered after 1.5 s.
    let running = call(
        &registry,
        ToolContext::new(()),
        "book_room",
        json!({"night": "late"}),
    );
    let question = questions.next().await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    registry
        .questions()
        .answer(question.id(), Answer::Accept(json!({"room": "double"})))
        .await
        .expect("answered");
    assert_eq!(
        running.await.expect("joined").model_text(),
        "booked a Double room on late, breakfast false"
    );
}

#[tokio::test]
async fn a_tool_not_marked_asks_is_told_so() {
    let registry = registry();
    let result = registry
        .call(&ToolContext::new(()), "sneaky", json!({}))
        .await;
    assert_eq!(
        result.model_text(),
        "tool `sneaky` asked the person a question, but is not marked `asks` (`#[tool(asks)]`), \
         so its call cannot wait for an answer"
    );
}

#[tokio::test]
async fn answers_given_beforehand_and_no_one_to_ask() {
    let registry = registry();
    // An answer that does not fit the type is asked again, saying why.
    let ctx = ToolContext::builder(())
        .answers([
            Answer::Accept(json!({"room": "attic"})),
            Answer::Accept(json!({"room": "single"})),
        ])
        .build();
    let result = registry
        .call(&ctx, "book_room", json!({"night": "n"}))
        .await;
    assert_eq!(
        result.model_text(),
        "booked a Single room on n, breakfast false"
    );
    let ctx = ToolContext::builder(())
        .answers([
            Answer::Accept(json!({"room": 1})),
            Answer::Accept(json!({"room": 2})),
            Answer::Accept(json!({"room": 3})),
        ])
        .build();
    let result = registry
        .call(&ctx, "book_room", json!({"night": "n"}))
        .await;
    assert_eq!(
        result.model_text(),
        "the person's answer did not fit, after 3 asks: argument `room` at `/room`: expected \
         one of `single`, `double`, got `3`"
    );
    let ctx = ToolContext::builder(())
        .no_one_to_ask("this runs in a batch job")
        .build();
    let result = registry
        .call(&ctx, "book_room", json!({"night": "n"}))
        .await;
    assert_eq!(
        result.model_text(),
        "the person could not be asked: this runs in a batch job"
    );
    // Outside a registry, with no one named.
    let error = ToolContext::new(())
        .elicit::<Booking>("Which?")
        .await
        .expect_err("no one to ask");
    assert_eq!(
        error.to_string(),
        "the person could not be asked: this context is not a registry call's, and has no \
         answers given (ContextBuilder::answers)"
    );
}

#[tokio::test]
async fn a_question_asked_in_one_process_is_answered_in_another() {
    let store = MemoryStore::new();
    let asking = Arc::new(
        ToolRegistry::builder()
            .with(BookRoom)
            .store(store.clone())
            .build(),
    );
    let answering = ToolRegistry::<()>::builder().store(store).build();
    let mut questions = asking.questions().listen(&ToolContext::new(()));
    let running = call(
        &asking,
        ToolContext::new(()),
        "book_room",
        json!({"night": "n"}),
    );
    let question = questions.next().await;
    answering
        .questions()
        .answer(
            question.id(),
            Answer::Accept(json!({"room": "double", "breakfast": true})),
        )
        .await
        .expect("answered elsewhere");
    assert_eq!(
        running.await.expect("joined").model_text(),
        "booked a Double room on n, breakfast true"
    );
}

/// A caller's questions are listed and heard in any process sharing the
/// store, and never by another caller.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_callers_questions_are_listed_and_heard_in_another_process_and_by_no_one_else() {
    let store = MemoryStore::new();
    let asking = Arc::new(
        ToolRegistry::builder()
            .with(BookRoom)
            .store(store.clone())
            .build(),
    );
    let answering = ToolRegistry::<()>::builder().store(store).build();
    let ada = ToolContext::builder(())
        .caller("ada")
        .conversation("stay")
        .build();
    let bob = ToolContext::builder(()).caller("bob").build();
    // Heard in the other process, as it is asked.
    let mut adas = answering.questions().listen(&ada);
    let mut bobs = answering.questions().listen(&bob);
    let running = call(&asking, ada.clone(), "book_room", json!({"night": "n"}));
    let question = adas.next().await;
    assert_eq!(question.message(), "Which room on n?");
    assert_eq!(question.conversation(), Some("stay"));
    // Listed there too, and to Ada alone.
    let open = |ctx: ToolContext| {
        let answering = &answering;
        async move { answering.questions().open(&ctx).await.expect("read") }
    };
    assert_eq!(open(ada.clone()).await, std::slice::from_ref(&question));
    assert!(open(bob.clone()).await.is_empty());
    assert!(open(ToolContext::new(())).await.is_empty());
    assert!(
        tokio::time::timeout(Duration::from_millis(100), bobs.next())
            .await
            .is_err(),
        "Bob hears nothing of Ada's question"
    );
    answering
        .questions()
        .answer(question.id(), Answer::Accept(json!({"room": "single"})))
        .await
        .expect("answered elsewhere");
    assert_eq!(
        running.await.expect("joined").model_text(),
        "booked a Single room on n, breakfast false"
    );
    assert!(open(ada).await.is_empty(), "answered: no longer open");
    // A question asked after is heard by a listener made before it.
    let running = call(
        &asking,
        ToolContext::builder(()).caller("ada").build(),
        "book_room",
        json!({"night": "m"}),
    );
    let next = adas.next().await;
    assert_eq!(next.message(), "Which room on m?");
    answering
        .questions()
        .answer(next.id(), Answer::Decline)
        .await
        .expect("answered");
    assert_eq!(
        running.await.expect("joined").model_text(),
        "the guest declined; do not ask again"
    );
}
