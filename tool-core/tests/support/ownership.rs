//! A call belongs to whoever made it: two conversations, and two callers,
//! that make the very same call (the same tool, the same arguments, even
//! the same provider's id) each have a call of their own, decided,
//! delivered and listed apart, as two processes sharing a store (two
//! registries on one store) see them. Within one conversation, the same
//! provider's call asked for again is the same call: it runs once.

use std::time::Duration;

use serde_json::{Value, json};
use tool_core::policy::{
    Approval, ApprovalHook, ApprovalRequest, Decision, DecisionError, ParkedCall,
};
use tool_core::provider::{Provider, Turn};
use tool_core::store::Store;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};

/// Send money from the user's account to another.
#[tool(tier = Confirm)]
pub(crate) fn send_money(
    /// Who gets it.
    to: String,
    /// How much, in cents.
    cents: u64,
) -> String {
    format!("sent {cents} cents to {to}")
}

/// Ask the user to pick a file; the client shows the dialog.
#[tool(long_running)]
pub(crate) fn pick_file(
    /// What the dialog says.
    prompt: String,
) -> ToolResult {
    let _ = prompt;
    ToolResult::deferred()
}

/// Ship an order; the warehouse confirms it later. A `Confirm` tool whose
/// result the application delivers.
#[tool(tier = Confirm, long_running)]
pub(crate) fn ship(
    /// The order.
    order: String,
) -> ToolResult {
    let _ = order;
    ToolResult::deferred()
}

/// Leaves every payment to a person, later.
pub(crate) struct AskLater;

impl ApprovalHook<()> for AskLater {
    async fn approve(&self, _: &ApprovalRequest<'_, ()>) -> Approval {
        Approval::Park
    }
}

/// A registry that parks every payment, keeping what waits in `store`.
pub(crate) fn registry(store: impl Store) -> ToolRegistry {
    ToolRegistry::builder()
        .with(SendMoney)
        .with(PickFile)
        .with(Ship)
        .approval(AskLater)
        .store(store)
        .build()
}

const PROVIDER: Provider = Provider::Anthropic { strict: false };

/// The model's response with one call, under the provider's id `toolu_1`:
/// the same in every conversation, as a provider that numbers its calls
/// per response would send it.
pub(crate) fn response(tool: &str, input: Value) -> Value {
    json!({"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": tool, "input": input}
    ]})
}

fn payment() -> Value {
    response("send_money", json!({"to": "ada", "cents": 5000}))
}

/// The ids of parked calls, as listed.
pub(crate) fn ids(calls: Vec<ParkedCall>) -> Vec<String> {
    calls.iter().map(|call| call.call_id().to_owned()).collect()
}

/// A context of `caller` in `conversation`.
pub(crate) fn ctx(caller: &str, conversation: &str) -> ToolContext {
    ToolContext::builder(())
        .caller(caller)
        .conversation(conversation)
        .build()
}

async fn respond(registry: &ToolRegistry, ctx: &ToolContext, response: &Value) -> Turn {
    PROVIDER
        .respond(registry, ctx, response)
        .await
        .expect("the provider's shape")
}

fn waiting_id(turn: &Turn) -> String {
    let waiting: Vec<_> = turn.waiting().collect();
    assert_eq!(waiting.len(), 1, "one call waits");
    waiting[0].call_id().to_owned()
}

/// The reply's text for the one call of a resumed turn.
async fn finished(registry: &ToolRegistry, mut turn: Turn) -> String {
    tokio::time::timeout(Duration::from_secs(10), turn.resume(registry))
        .await
        .expect("the turn resumes");
    turn.results()[0].model_text().into_owned()
}

/// Two conversations (one caller's, or two callers') both park the same
/// payment: deciding one (edited, then denied) decides that one alone,
/// whichever process decides, and the other waits for its own decision.
pub(crate) async fn the_same_payment_in_two_conversations_is_two_calls(
    here: &ToolRegistry,
    there: &ToolRegistry,
    (first, second): (ToolContext, ToolContext),
) {
    let a = respond(here, &first, &payment()).await;
    let b = respond(here, &second, &payment()).await;
    let (a_id, b_id) = (waiting_id(&a), waiting_id(&b));
    assert_ne!(a_id, b_id, "two calls, two ids");
    assert!(a.waiting().all(|waiting| waiting.awaits_decision()));

    // Edited for the first: 100 cents, for the first alone.
    let edited = Decision::edit(json!({"to": "ada", "cents": 100}));
    let result = there
        .approvals()
        .decide(&first, &a_id, edited)
        .await
        .expect("parked");
    assert_eq!(result.model_text(), "sent 100 cents to ada");
    assert_eq!(finished(here, a).await, "sent 100 cents to ada");

    // The second still waits for its own decision, listed where it is
    // decided.
    let parked = there.approvals().parked(&second).await.expect("listed");
    assert_eq!(ids(parked.clone()), std::slice::from_ref(&b_id));
    assert_eq!(parked[0].arguments(), &json!({"to": "ada", "cents": 5000}));
    let denied = Decision::deny("not today");
    there
        .approvals()
        .decide(&second, &b_id, denied)
        .await
        .expect("still parked");
    assert_eq!(
        finished(here, b).await,
        "the call to tool `send_money` was denied: not today"
    );

    // And the other way round: the first approved as asked, the second
    // denied, neither taking the other's decision.
    let a = respond(here, &first, &payment()).await;
    let b = respond(here, &second, &payment()).await;
    let (a_id, b_id) = (waiting_id(&a), waiting_id(&b));
    there
        .approvals()
        .decide(&second, &b_id, Decision::deny("no"))
        .await
        .expect("parked");
    there
        .approvals()
        .decide(&first, &a_id, Decision::Approve)
        .await
        .expect("parked, not decided by the denial");
    assert_eq!(finished(here, a).await, "sent 5000 cents to ada");
    assert_eq!(
        finished(here, b).await,
        "the call to tool `send_money` was denied: no"
    );
}

/// Two callers make the same call: neither lists nor decides the other's.
pub(crate) async fn a_caller_never_sees_or_decides_another_callers_call(
    here: &ToolRegistry,
    there: &ToolRegistry,
) {
    let ada = ctx("ada", "chat");
    let bob = ctx("bob", "chat");
    let args = json!({"to": "carol", "cents": 5000});
    let ada_call = here.call(&ada, "send_money", args.clone()).await;
    let bob_call = here.call(&bob, "send_money", args).await;
    let ada_id = ada_call.pending_call_id().expect("parked").to_owned();
    let bob_id = bob_call.pending_call_id().expect("parked").to_owned();
    assert_ne!(ada_id, bob_id);

    assert_eq!(
        ids(there.approvals().parked(&ada).await.expect("listed")),
        std::slice::from_ref(&ada_id)
    );
    assert_eq!(
        ids(there.approvals().parked(&bob).await.expect("listed")),
        std::slice::from_ref(&bob_id)
    );
    // A context naming no caller is no one's: it sees neither.
    assert!(
        there
            .approvals()
            .parked(&ToolContext::new(()))
            .await
            .expect("listed")
            .is_empty()
    );

    // Bob cannot decide Ada's call: to him it does not exist.
    assert_eq!(
        there
            .approvals()
            .decide(&bob, &ada_id, Decision::Approve)
            .await,
        Err(DecisionError::UnknownCall {
            call_id: ada_id.clone()
        })
    );
    assert_eq!(
        there
            .approvals()
            .decide(&ToolContext::new(()), &ada_id, Decision::Approve)
            .await,
        Err(DecisionError::UnknownCall {
            call_id: ada_id.clone()
        })
    );
    // Ada denies hers; Bob's waits, and he approves it.
    there
        .approvals()
        .decide(&ada, &ada_id, Decision::deny("ada said no"))
        .await
        .expect("hers");
    assert_eq!(
        ids(there.approvals().parked(&bob).await.expect("listed")),
        std::slice::from_ref(&bob_id)
    );
    // Decided, Ada's call is still not Bob's to know of.
    assert_eq!(
        there
            .approvals()
            .decide(&bob, &ada_id, Decision::Approve)
            .await,
        Err(DecisionError::UnknownCall {
            call_id: ada_id.clone()
        })
    );
    let result = there
        .approvals()
        .decide(&bob, &bob_id, Decision::Approve)
        .await
        .expect("his");
    assert_eq!(result.model_text(), "sent 5000 cents to carol");
    let ada_result = tokio::time::timeout(Duration::from_secs(10), here.pending().wait(&ada_id))
        .await
        .expect("the wait ends")
        .expect("a result");
    assert_eq!(
        ada_result.model_text(),
        "the call to tool `send_money` was denied: ada said no"
    );
}

/// Two conversations wait on the same client-run call: each gets the
/// result delivered for it.
pub(crate) async fn the_same_client_call_in_two_conversations_gets_its_own_result(
    here: &ToolRegistry,
    there: &ToolRegistry,
) {
    let input = json!({"prompt": "Which file?"});
    let first = ctx("ada", "chat:1");
    let second = ctx("bob", "chat:2");
    let a = respond(here, &first, &response("pick_file", input.clone())).await;
    let b = respond(here, &second, &response("pick_file", input)).await;
    let (a_id, b_id) = (waiting_id(&a), waiting_id(&b));
    assert_ne!(a_id, b_id);
    there
        .pending()
        .deliver(&b_id, ToolResult::text("bob.txt"))
        .await
        .expect("delivered");
    there
        .pending()
        .deliver(&a_id, ToolResult::text("ada.txt"))
        .await
        .expect("delivered");
    assert_eq!(finished(here, a).await, "ada.txt");
    assert_eq!(finished(here, b).await, "bob.txt");
}

/// Within one conversation, the same provider's call asked for again (a
/// retried request, another replica picking up the turn) is the same
/// call: one record, one run, one decision.
pub(crate) async fn the_same_call_asked_again_in_its_conversation_runs_once(
    here: &ToolRegistry,
    there: &ToolRegistry,
) {
    let chat = ctx("ada", "chat:retried");
    let input = json!({"prompt": "Which file?"});
    let first = respond(here, &chat, &response("pick_file", input.clone())).await;
    let retried = respond(there, &chat, &response("pick_file", input.clone())).await;
    let id = waiting_id(&first);
    assert_eq!(waiting_id(&retried), id, "the same call");
    there
        .pending()
        .deliver(&id, ToolResult::text("notes.txt"))
        .await
        .expect("delivered once");
    // Asked again once delivered, before anyone took the result: the same
    // call, its result waiting, not a second run.
    let third = respond(here, &chat, &response("pick_file", input.clone())).await;
    assert_eq!(waiting_id(&third), id);
    assert_eq!(finished(here, first).await, "notes.txt");
    assert_eq!(finished(there, third).await, "notes.txt");
    // The same provider's id with other arguments (a client that numbers
    // its calls anew): another call.
    let other = respond(
        here,
        &chat,
        &response("pick_file", json!({"prompt": "And?"})),
    )
    .await;
    assert_ne!(waiting_id(&other), id);

    let parked = respond(
        here,
        &chat,
        &response("send_money", json!({"to": "ada", "cents": 1})),
    )
    .await;
    let again = respond(
        there,
        &chat,
        &response("send_money", json!({"to": "ada", "cents": 1})),
    )
    .await;
    let id = waiting_id(&parked);
    assert_eq!(waiting_id(&again), id, "parked once");
    assert_eq!(
        there.approvals().parked(&chat).await.expect("listed").len(),
        1
    );
    there
        .approvals()
        .decide(&chat, &id, Decision::Approve)
        .await
        .expect("parked");
    // Asked again after the decision, before its result was taken:
    // neither parked again nor run again.
    let after = respond(
        here,
        &chat,
        &response("send_money", json!({"to": "ada", "cents": 1})),
    )
    .await;
    assert_eq!(waiting_id(&after), id);
    assert!(after.waiting().all(|waiting| !waiting.awaits_decision()));
    assert!(
        there
            .approvals()
            .parked(&chat)
            .await
            .expect("listed")
            .is_empty()
    );
    assert_eq!(finished(there, again).await, "sent 1 cents to ada");
    assert_eq!(finished(here, after).await, "sent 1 cents to ada");
}

/// A `Confirm` tool whose result the application delivers: approved, it
/// runs, and the result delivered under the parked call's id is the
/// call's, in either process.
pub(crate) async fn an_approved_client_run_call_takes_its_delivery_under_its_parked_id(
    here: &ToolRegistry,
    there: &ToolRegistry,
) {
    let chat = ctx("ada", "chat:ship");
    let parked = here.call(&chat, "ship", json!({"order": "o-1"})).await;
    assert!(parked.awaits_decision(), "{}", parked.model_text());
    let id = parked.pending_call_id().expect("parked").to_owned();
    let deciding = there.approvals().decide(&chat, &id, Decision::Approve);
    let delivering = async {
        // Refused until the approved run waits for it.
        loop {
            match here
                .pending()
                .deliver(&id, ToolResult::text("shipped o-1"))
                .await
            {
                Ok(()) => break,
                Err(tool_core::registry::DeliveryError::NotAwaitingDelivery { .. }) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                Err(error) => panic!("{error}"),
            }
        }
    };
    let (decided, ()) = tokio::time::timeout(Duration::from_secs(10), async {
        tokio::join!(deciding, delivering)
    })
    .await
    .expect("the decision ends with the delivery");
    assert_eq!(decided.expect("parked").model_text(), "shipped o-1");
    let result = tokio::time::timeout(Duration::from_secs(10), here.pending().wait(&id))
        .await
        .expect("the wait ends")
        .expect("a result");
    assert_eq!(result.model_text(), "shipped o-1");
}

/// A turn saved while its call waited for a decision, loaded after the
/// call was decided elsewhere, no longer awaits a decision, and finishes
/// with the decided result.
pub(crate) async fn a_loaded_turn_knows_its_call_was_decided(
    here: &ToolRegistry,
    there: &ToolRegistry,
    store: &(impl Store + ?Sized),
) {
    let chat = ctx("ada", "chat:saved");
    let turn = respond(here, &chat, &payment()).await;
    let id = waiting_id(&turn);
    turn.save(store, "turn:saved", Duration::from_secs(60))
        .await
        .expect("saved");
    let loaded = Turn::load(store, "turn:saved")
        .await
        .expect("read")
        .expect("saved");
    assert!(loaded.waiting().all(|waiting| waiting.awaits_decision()));

    there
        .approvals()
        .decide(&chat, &id, Decision::Approve)
        .await
        .expect("parked");
    let loaded = Turn::load(store, "turn:saved")
        .await
        .expect("read")
        .expect("saved");
    let waiting: Vec<_> = loaded.waiting().collect();
    assert_eq!(waiting.len(), 1, "its result still to be taken");
    assert!(!waiting[0].awaits_decision(), "decided elsewhere");
    assert!(
        there
            .approvals()
            .parked(&chat)
            .await
            .expect("listed")
            .is_empty()
    );
    assert_eq!(finished(here, loaded).await, "sent 5000 cents to ada");
}
