//! A payment that waits for a person, across two processes: the first
//! gets the model's call of a `Confirm` tool, parks it for approval,
//! saves the turn to Redis and exits; the second, run later, gives the
//! person's decision (the amount lowered), and the turn finishes with the
//! reply the model reads.
//!
//! ```text
//! cargo run --example approval -- ask                  # parks the call, saves the turn, exits
//! cargo run --example approval -- decide 500           # approves it for 500 cents instead
//! cargo run --example approval -- decide deny "why"    # or denies it, saying why
//! ```
//!
//! Both talk to the Redis at `REDIS_URL` (`redis://127.0.0.1:6379` if
//! unset). The model's response is the one Anthropic's Messages API sends
//! for such a call, written out here, so no key is needed.

use std::time::Duration;

use serde_json::{Value, json};
use tool_core::policy::{Approval, ApprovalHook, ApprovalRequest, Decision};
use tool_core::provider::{Provider, Turn};
use tool_core::store::Store;
use tool_core::{ToolContext, ToolRegistry, tool};
use tool_redis::RedisStore;

/// Send money from the user's account to another.
#[tool(tier = Confirm)]
fn send_money(
    /// Who gets it.
    to: String,
    /// How much, in cents.
    cents: u64,
) -> String {
    format!("sent {cents} cents to {to}")
}

/// Leaves every payment to a person, who decides later.
struct AskThePerson;

impl ApprovalHook<()> for AskThePerson {
    async fn approve(&self, _: &ApprovalRequest<'_, ()>) -> Approval {
        Approval::Park
    }
}

/// Where the turn is saved: the conversation's key.
const CONVERSATION: &str = "conversation:approval-example";

/// The user whose conversation it is: only a context of the same user
/// lists and decides the user's parked calls.
const USER: &str = "user:7";

/// The context of the user's calls in the conversation, in either process.
fn context() -> ToolContext {
    ToolContext::builder(())
        .caller(USER)
        .conversation(CONVERSATION)
        .build()
}

/// The provider the conversation is with.
const PROVIDER: Provider = Provider::Anthropic { strict: false };

/// The model's response: a payment of 50 euros to Ada.
fn response() -> Value {
    json!({
        "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "stop_reason": "tool_use",
        "content": [
            {"type": "text", "text": "I'll send Ada the 50 euros."},
            {"type": "tool_use", "id": "toolu_01", "name": "send_money",
             "input": {"to": "ada", "cents": 5000}}
        ]
    })
}

/// Each process's registry, on the Redis they share.
pub(crate) async fn registry(redis: &str) -> Result<(ToolRegistry, RedisStore), String> {
    let store = RedisStore::connect(redis).await.map_err(|error| {
        format!("{error}; start a Redis (`redis-server`) or set REDIS_URL to one")
    })?;
    let registry = ToolRegistry::builder()
        .with(SendMoney)
        .approval(AskThePerson)
        .store(store.clone())
        .build();
    Ok((registry, store))
}

/// The call parked for a person.
pub(crate) struct Parked {
    /// The registry's id of the call, which the decision names.
    pub(crate) call_id: String,
    /// The arguments the model sent.
    pub(crate) arguments: Value,
}

/// The first process: the model's call parked, the turn saved.
pub(crate) async fn ask(redis: &str) -> Result<Parked, String> {
    let (registry, store) = registry(redis).await?;
    let turn = PROVIDER
        .respond(&registry, &context(), &response())
        .await
        .map_err(|error| error.to_string())?;
    let waiting = turn
        .waiting()
        .find(|waiting| waiting.awaits_decision())
        .ok_or("the payment did not wait for a decision")?;
    let parked = Parked {
        call_id: waiting.call_id().to_owned(),
        arguments: waiting.call().arguments().clone(),
    };
    turn.save(&store, CONVERSATION, Duration::from_secs(24 * 3600))
        .await
        .map_err(|error| error.to_string())?;
    Ok(parked)
}

/// The second process: the person's decision on the saved turn's call,
/// and the reply the model reads.
pub(crate) async fn decide(redis: &str, decision: Decision) -> Result<Vec<Value>, String> {
    let (registry, store) = registry(redis).await?;
    let mut turn = Turn::load(&store, CONVERSATION)
        .await
        .map_err(|error| error.to_string())?
        .ok_or("no turn waits: run `cargo run --example approval -- ask` first")?;
    let ctx = context();
    let ids: Vec<String> = turn
        .waiting()
        .filter(|waiting| waiting.awaits_decision())
        .map(|waiting| waiting.call_id().to_owned())
        .collect();
    for id in ids {
        registry
            .approvals()
            .decide(&ctx, &id, decision.clone())
            .await
            .map_err(|error| error.to_string())?;
    }
    turn.resume(&registry).await;
    // Finished: nothing waits on it any more.
    store
        .delete(CONVERSATION)
        .await
        .map_err(|error| error.to_string())?;
    Ok(turn.reply().to_vec())
}

#[tokio::main]
async fn main() {
    let redis = std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into());
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let outcome = match args.as_slice() {
        ["ask"] => ask(&redis).await.map(|parked| {
            println!(
                "The payment waits for a person: call {} with {}.\nDecide with `cargo run --example approval -- decide <cents>` (or `decide deny \"why\"`).",
                parked.call_id, parked.arguments
            );
        }),
        ["decide", "deny", reason] => decide(&redis, Decision::deny(*reason)).await.map(print_reply),
        ["decide", cents] => match cents.parse::<u64>() {
            Ok(cents) => {
                let edited = json!({"to": "ada", "cents": cents});
                decide(&redis, Decision::edit(edited)).await.map(print_reply)
            }
            Err(_) => Err(format!("`{cents}` is not an amount in cents")),
        },
        _ => Err("usage: approval ask | approval decide <cents> | approval decide deny <reason>".into()),
    };
    if let Err(error) = outcome {
        eprintln!("{error}");
        std::process::exit(1);
    }
}

fn print_reply(reply: Vec<Value>) {
    println!("The reply the model reads:");
    for message in reply {
        println!("{message}");
    }
}
