//! What a call through [`ToolRegistry::call`] costs over calling the function
//! directly, and whether a batch of slow tools runs concurrently.
//!
//! Group `pipeline`: one three-argument tool, its arguments as a
//! `serde_json::Value`, cloned in every variant:
//! - `baseline`: `serde_json::from_value` into an argument struct, then the
//!   function itself;
//! - `registry_no_validation`: the registry's whole pipeline, schema
//!   validation off;
//! - `registry_validation`: the same with validation on (the default);
//! - `registry_default_tool`: validation on, a tool that is not
//!   `concurrency_safe` (each call takes its per-tool lock);
//! - `registry_with_observer`: validation on, plus an observer that counts.
//!
//! Group `ratio`: the same registry variants, each measured interleaved
//! with the baseline (blocks of 64 calls alternating), reported as 1 µs
//! times the ratio: the figure to read on a machine whose speed drifts.
//!
//! Group `batch`: eight `read_only` tools that each sleep 50 ms, run with
//! [`ToolRegistry::call_all`] (so together, by default), against a single
//! 50 ms sleep.
//!
//! Run with `cargo bench --bench dispatch`; see BENCHMARKS.md for figures.

mod support;

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use serde_json::{Value, json};
use support::{AddNote, AddNoteLocked, EXPECTED, arguments, direct};
use tokio::runtime::Runtime;
use tool_core::observe::{CallFinished, CallObserver, CallStarted};
use tool_core::registry::RegistryBuilder;
use tool_core::registry::ToolCall;
use tool_core::registry::Validation;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};

/// An observer that counts both events.
struct Counting(Arc<AtomicU64>);

impl CallObserver for Counting {
    fn call_started(&self, _: &CallStarted<'_>) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
    fn call_finished(&self, _: &CallFinished<'_>) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a Tokio runtime")
}

fn pipeline_registry() -> ToolRegistry {
    ToolRegistry::new().with(AddNote).with(AddNoteLocked)
}

/// One registry call outside the timed loop: it must be the success the
/// benchmark means to measure, never an error path.
fn assert_success(
    rt: &Runtime,
    registry: &ToolRegistry,
    ctx: &ToolContext,
    name: &str,
    args: &Value,
) {
    let result: ToolResult = rt.block_on(registry.call(ctx, name, args.clone()));
    assert!(!result.is_error(), "{name}: {}", result.model_text());
    assert_eq!(result.as_text(), Some(EXPECTED), "{name}");
}

fn pipeline(c: &mut Criterion) {
    let rt = runtime();
    let ctx = ToolContext::new(());
    let args = arguments();

    let no_validation = RegistryBuilder::from(pipeline_registry())
        .validation(Validation::Off)
        .build();
    let validation = pipeline_registry();
    let events = Arc::new(AtomicU64::new(0));
    let observed = RegistryBuilder::from(pipeline_registry())
        .observer(Counting(Arc::clone(&events)))
        .build();

    assert_eq!(direct(args.clone()), EXPECTED);
    assert_success(&rt, &no_validation, &ctx, "add_note", &args);
    assert_success(&rt, &validation, &ctx, "add_note", &args);
    assert_success(&rt, &validation, &ctx, "add_note_locked", &args);
    assert_success(&rt, &observed, &ctx, "add_note", &args);
    assert_eq!(
        events.load(Ordering::Relaxed),
        2,
        "observer saw both events"
    );

    let mut group = c.benchmark_group("pipeline");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));

    group.bench_function("baseline", |b| {
        b.to_async(&rt)
            .iter(|| async { black_box(direct(black_box(&args).clone())) });
    });
    let variants = [
        ("registry_no_validation", &no_validation, "add_note"),
        ("registry_validation", &validation, "add_note"),
        ("registry_default_tool", &validation, "add_note_locked"),
        ("registry_with_observer", &observed, "add_note"),
    ];
    for (id, registry, tool) in variants {
        group.bench_function(id, |b| {
            b.to_async(&rt).iter(|| async {
                black_box(
                    registry
                        .call(&ctx, black_box(tool), black_box(&args).clone())
                        .await,
                )
            });
        });
    }
    group.finish();

    // The same comparisons, interleaved: blocks of baseline calls and of
    // registry calls alternate within every sample, so that both see the
    // same machine. On a shared machine whose speed changes for seconds at
    // a time, this is the ratio to read. What criterion reports as the time
    // of one iteration here is 1 µs times the ratio.
    let mut group = c.benchmark_group("ratio");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (id, registry, tool) in variants {
        group.bench_function(id, |b| {
            b.iter_custom(|iters| {
                rt.block_on(interleaved_ratio(iters, registry, &ctx, tool, &args))
            });
        });
    }
    group.finish();
}

/// `iters` baseline calls and `iters` registry calls in alternating blocks;
/// 1 µs times (registry time / baseline time), for each of `iters`.
async fn interleaved_ratio(
    iters: u64,
    registry: &ToolRegistry,
    ctx: &ToolContext,
    tool: &str,
    args: &Value,
) -> Duration {
    const BLOCK: u64 = 64;
    let mut baseline = Duration::ZERO;
    let mut measured = Duration::ZERO;
    let mut done = 0;
    while done < iters {
        let n = BLOCK.min(iters - done);
        let start = Instant::now();
        for _ in 0..n {
            black_box(direct(black_box(args).clone()));
        }
        baseline += start.elapsed();
        let start = Instant::now();
        for _ in 0..n {
            black_box(
                registry
                    .call(ctx, black_box(tool), black_box(args).clone())
                    .await,
            );
        }
        measured += start.elapsed();
        done += n;
    }
    let ratio = measured.as_secs_f64() / baseline.as_secs_f64().max(f64::MIN_POSITIVE);
    Duration::from_secs_f64(ratio * 1e-6 * iters as f64)
}

/// Eight read-only tools that each wait 50 ms: `wait_1` .. `wait_8`.
macro_rules! waiting_tools {
    ($($name:ident => $tool:ident),* $(,)?) => {
        $(
            /// Wait 50 ms.
            #[tool(tier = Observe, read_only)]
            async fn $name() -> &'static str {
                tokio::time::sleep(Duration::from_millis(50)).await;
                "waited"
            }
        )*

        fn batch_registry() -> ToolRegistry {
            ToolRegistry::new()$(.with($tool))*
        }
    };
}

waiting_tools! {
    wait_1 => Wait1,
    wait_2 => Wait2,
    wait_3 => Wait3,
    wait_4 => Wait4,
    wait_5 => Wait5,
    wait_6 => Wait6,
    wait_7 => Wait7,
    wait_8 => Wait8,
}

fn batch(c: &mut Criterion) {
    let rt = runtime();
    let ctx = ToolContext::new(());
    let registry = batch_registry();
    let calls: Vec<ToolCall> = registry
        .names()
        .map(|name| ToolCall::new(name, json!({})))
        .collect();
    assert_eq!(calls.len(), 8);

    let start = std::time::Instant::now();
    let results = rt.block_on(registry.call_all(&ctx, calls.clone()));
    let once = start.elapsed();
    assert_eq!(results.len(), 8);
    for result in &results {
        assert!(!result.is_error(), "{}", result.model_text());
        assert_eq!(result.as_text(), Some("waited"));
    }
    assert!(
        once < Duration::from_millis(8 * 50),
        "the batch ran one call after another ({once:?})"
    );

    let mut group = c.benchmark_group("batch");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));

    group.bench_function("single_50ms_sleep", |b| {
        b.to_async(&rt)
            .iter(|| tokio::time::sleep(black_box(Duration::from_millis(50))));
    });
    group.bench_function("call_all_8x50ms", |b| {
        b.to_async(&rt)
            .iter(|| async { black_box(registry.call_all(&ctx, black_box(&calls).clone()).await) });
    });
    group.finish();
}

criterion_group!(benches, pipeline, batch);
criterion_main!(benches);
