//! How a batch runs (`ToolRegistry::call_all`, and so `Provider::respond`)
//! under each `Batch`: which calls overlap, which wait, and the results in
//! the model's order.
//!
//! The tools log when they start and end on Tokio's paused clock, each
//! taking its own number of milliseconds, so the log is one exact sequence:
//! two calls overlap when the second starts before the first ends.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::json;
use tokio::time::Instant;
use tool_core::registry::RegistryBuilder;
use tool_core::registry::{Batch, ToolCall};
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};

/// Keys with values, and the log of the calls that touch them.
struct Store {
    start: Instant,
    log: Mutex<Vec<String>>,
    values: Mutex<HashMap<String, u32>>,
}

impl Store {
    /// `a` is 1; the clock starts now.
    fn context() -> ToolContext<Store> {
        ToolContext::new(Store {
            start: Instant::now(),
            log: Mutex::default(),
            values: Mutex::new(HashMap::from([("a".to_owned(), 1)])),
        })
    }

    /// Logs the start of `what`, waits `millis`, logs its end.
    async fn hold(&self, what: &str, millis: u64) {
        self.note(what, "starts");
        tokio::time::sleep(Duration::from_millis(millis)).await;
        self.note(what, "ends");
    }

    fn note(&self, what: &str, edge: &str) {
        let at = self.start.elapsed().as_millis();
        self.log
            .lock()
            .expect("lock")
            .push(format!("{at}ms {what} {edge}"));
    }

    fn log(&self) -> Vec<String> {
        self.log.lock().expect("lock").clone()
    }
}

/// Read a key.
#[tool(tier = Observe, read_only)]
async fn read(ctx: &ToolContext<Store>, key: String, millis: u64) -> String {
    ctx.state().hold(&format!("read {key}"), millis).await;
    let value = ctx.state().values.lock().expect("lock").get(&key).copied();
    format!("{key}={}", value.unwrap_or(0))
}

/// Look at a key; its calls may overlap, though it is not read-only.
#[tool(tier = Observe, concurrency_safe)]
async fn stat(ctx: &ToolContext<Store>, key: String, millis: u64) -> String {
    ctx.state().hold(&format!("stat {key}"), millis).await;
    format!("stat {key}")
}

/// Write a key.
#[tool(tier = Observe)]
async fn write(ctx: &ToolContext<Store>, key: String, value: u32, millis: u64) -> String {
    ctx.state().hold(&format!("write {key}"), millis).await;
    ctx.state()
        .values
        .lock()
        .expect("lock")
        .insert(key.clone(), value);
    format!("wrote {key}={value}")
}

fn registry() -> ToolRegistry<Store> {
    ToolRegistry::new().with(Read).with(Stat).with(Write)
}

/// A read of `a` (30 ms), a look at `b` (10 ms), a write of `a` = 2
/// (20 ms), a read of `a` (40 ms): every call ends at its own time.
fn read_stat_write_read() -> Vec<ToolCall> {
    vec![
        ToolCall::new("read", json!({"key": "a", "millis": 30})),
        ToolCall::new("stat", json!({"key": "b", "millis": 10})),
        ToolCall::new("write", json!({"key": "a", "value": 2, "millis": 20})),
        ToolCall::new("read", json!({"key": "a", "millis": 40})),
    ]
}

fn texts(results: &[ToolResult]) -> Vec<String> {
    results
        .iter()
        .map(|result| result.model_text().into_owned())
        .collect()
}

#[tokio::test(start_paused = true)]
async fn auto_runs_reads_together_and_a_write_alone_between_them() {
    assert_eq!(Batch::default(), Batch::Auto);
    let ctx = Store::context();
    let results = registry().call_all(&ctx, read_stat_write_read()).await;
    assert_eq!(
        ctx.state().log(),
        [
            // The read and the look overlap.
            "0ms read a starts",
            "0ms stat b starts",
            "10ms stat b ends",
            "30ms read a ends",
            // The write waits for both, and runs alone.
            "30ms write a starts",
            "50ms write a ends",
            // The read after it starts once it has ended.
            "50ms read a starts",
            "90ms read a ends",
        ]
    );
    assert_eq!(texts(&results), ["a=1", "stat b", "wrote a=2", "a=2"]);
}

#[tokio::test(start_paused = true)]
async fn parallel_runs_every_call_at_once() {
    let ctx = Store::context();
    let registry = RegistryBuilder::from(registry())
        .batch(Batch::Parallel)
        .build();
    let results = registry.call_all(&ctx, read_stat_write_read()).await;
    assert_eq!(
        ctx.state().log(),
        [
            "0ms read a starts",
            "0ms stat b starts",
            "0ms write a starts",
            "10ms stat b ends",
            "20ms write a ends",
            "30ms read a ends",
            // `read` is not `concurrency_safe`: its second call waits for
            // its first.
            "30ms read a starts",
            "70ms read a ends",
        ]
    );
    // The first read ended after the write: it saw the write.
    assert_eq!(texts(&results), ["a=2", "stat b", "wrote a=2", "a=2"]);
}

#[tokio::test(start_paused = true)]
async fn sequential_runs_one_call_after_another_in_order() {
    let ctx = Store::context();
    let registry = RegistryBuilder::from(registry())
        .batch(Batch::Sequential)
        .build();
    let results = registry.call_all(&ctx, read_stat_write_read()).await;
    assert_eq!(
        ctx.state().log(),
        [
            "0ms read a starts",
            "30ms read a ends",
            "30ms stat b starts",
            "40ms stat b ends",
            "40ms write a starts",
            "60ms write a ends",
            "60ms read a starts",
            "100ms read a ends",
        ]
    );
    assert_eq!(texts(&results), ["a=1", "stat b", "wrote a=2", "a=2"]);
}

#[tokio::test(start_paused = true)]
async fn auto_keeps_a_group_together_across_an_unknown_tool() {
    let ctx = Store::context();
    let calls = vec![
        ToolCall::new("stat", json!({"key": "b", "millis": 20})),
        ToolCall::new("nope", json!({})),
        ToolCall::new("stat", json!({"key": "c", "millis": 10})),
    ];
    let results = registry().call_all(&ctx, calls).await;
    assert_eq!(
        ctx.state().log(),
        [
            "0ms stat b starts",
            "0ms stat c starts",
            "10ms stat c ends",
            "20ms stat b ends",
        ]
    );
    assert_eq!(
        texts(&results),
        [
            "stat b",
            "unknown tool `nope`. Available tools: `read`, `stat`, `write`.",
            "stat c",
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn auto_starts_a_new_group_after_each_write() {
    let ctx = Store::context();
    let calls = vec![
        ToolCall::new("write", json!({"key": "a", "value": 2, "millis": 10})),
        ToolCall::new("write", json!({"key": "b", "value": 3, "millis": 10})),
        ToolCall::new("stat", json!({"key": "a", "millis": 20})),
        ToolCall::new("read", json!({"key": "b", "millis": 10})),
    ];
    let results = registry().call_all(&ctx, calls).await;
    assert_eq!(
        ctx.state().log(),
        [
            "0ms write a starts",
            "10ms write a ends",
            "10ms write b starts",
            "20ms write b ends",
            "20ms stat a starts",
            "20ms read b starts",
            "30ms read b ends",
            "40ms stat a ends",
        ]
    );
    assert_eq!(texts(&results), ["wrote a=2", "wrote b=3", "stat a", "b=3"]);
}

#[tokio::test(start_paused = true)]
async fn auto_keeps_the_lock_of_a_read_only_tool_not_marked_concurrency_safe() {
    // `read` may run beside other tools, but not beside itself.
    let ctx = Store::context();
    let calls = vec![
        ToolCall::new("read", json!({"key": "a", "millis": 30})),
        ToolCall::new("read", json!({"key": "b", "millis": 10})),
        ToolCall::new("stat", json!({"key": "c", "millis": 20})),
    ];
    let results = registry().call_all(&ctx, calls).await;
    assert_eq!(
        ctx.state().log(),
        [
            "0ms read a starts",
            "0ms stat c starts",
            "20ms stat c ends",
            "30ms read a ends",
            "30ms read b starts",
            "40ms read b ends",
        ]
    );
    assert_eq!(texts(&results), ["a=1", "b=0", "stat c"]);
}

#[tokio::test(start_paused = true)]
async fn an_empty_batch_has_no_results() {
    let ctx = Store::context();
    for batch in [Batch::Auto, Batch::Parallel, Batch::Sequential] {
        let results = RegistryBuilder::from(registry())
            .batch(batch)
            .build()
            .call_all(&ctx, [])
            .await;
        assert!(results.is_empty(), "{batch:?}");
    }
}
