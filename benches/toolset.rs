//! What a view of a large registry costs: a view of 10 tools made and
//! turned into OpenAI's strict definitions, from registries of 100 and
//! 2,000 tools. The view is made anew for every iteration, so its
//! definitions are made too (a kept view would give them back at once).
//!
//! Group `view_definitions`: `by_name/N` picks the 10 by name, `by_tag/N`
//! by a tag only they carry, `caller/N` by that tag and then the scopes
//! of a caller (each of the 10 requires one it holds); `registry_of_10` is the same 10 tools' definitions from a
//! registry that holds only them, made anew each time (its cache
//! emptied by a change), the baseline.
//!
//! Run with `cargo bench --bench toolset`; see BENCHMARKS.md.

use std::borrow::Cow;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use tool_core::provider::Provider;
use tool_core::toolset::Select;
use tool_core::{BoxFuture, Tool, ToolContext, ToolMetadata, ToolRegistry, ToolResult};

/// One of many tools alike but for their names.
struct Numbered {
    name: String,
    picked: bool,
}

impl Tool for Numbered {
    fn name(&self) -> &str {
        &self.name
    }
    fn description(&self) -> &str {
        "Look up a record by its id, with the fields to return."
    }
    fn input_schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "id": {"type": "string", "description": "The record's id."},
                "fields": {"type": "array", "items": {"type": "string"}}
            },
            "required": ["id"]
        })
    }
    fn metadata(&self) -> ToolMetadata {
        let picked: &'static [Cow<'static, str>] = if self.picked {
            &[Cow::Borrowed("picked")]
        } else {
            &[]
        };
        ToolMetadata {
            tags: Cow::Borrowed(picked),
            scopes: Cow::Borrowed(picked),
            ..ToolMetadata::DEFAULT
        }
    }
    fn call<'a>(&'a self, _: &'a ToolContext, _: Value) -> BoxFuture<'a, ToolResult> {
        Box::pin(async { ToolResult::text("found") })
    }
}

/// `size` tools, of which every `size / 10`-th (10 in all) is picked.
fn registry(size: usize) -> (ToolRegistry, Vec<String>) {
    let mut registry = ToolRegistry::new();
    let mut picked = Vec::new();
    for at in 0..size {
        let name = format!("tool_{at:04}");
        let is_picked = at % (size / 10) == 0;
        if is_picked {
            picked.push(name.clone());
        }
        registry
            .register(Numbered {
                name,
                picked: is_picked,
            })
            .expect("a valid tool");
    }
    (registry, picked)
}

fn view_definitions(c: &mut Criterion) {
    let provider = Provider::OpenAiChat { strict: true };
    let mut group = c.benchmark_group("view_definitions");
    group
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));

    let (mut ten, _) = registry(10);
    group.bench_function("registry_of_10", |b| {
        b.iter(|| {
            // A change empties the cache: the definitions are made again.
            ten.disable("tool_0000");
            ten.enable("tool_0000");
            black_box(provider.definitions(&ten).expect("definitions"))
        });
    });

    let caller = ToolContext::builder(()).scopes(["picked"]).build();
    for size in [100, 2_000] {
        let (registry, picked) = registry(size);
        let by_name = registry.view(Select::all().names(picked.iter().cloned()));
        assert_eq!(by_name.len(), 10);
        assert_eq!(registry.view(Select::all().tags(["picked"])).len(), 10);
        group.bench_with_input(BenchmarkId::new("by_name", size), &size, |b, _| {
            b.iter(|| {
                let view = registry.view(Select::all().names(picked.iter().cloned()));
                black_box(provider.definitions(&view).expect("definitions"))
            });
        });
        group.bench_with_input(BenchmarkId::new("by_tag", size), &size, |b, _| {
            b.iter(|| {
                let view = registry.view(Select::all().tags(["picked"]));
                black_box(provider.definitions(&view).expect("definitions"))
            });
        });
        group.bench_with_input(BenchmarkId::new("caller", size), &size, |b, _| {
            b.iter(|| {
                let view = registry.view(Select::all().tags(["picked"]).caller(&caller));
                black_box(provider.definitions(&view).expect("definitions"))
            });
        });
    }
    group.finish();
}

criterion_group!(benches, view_definitions);
criterion_main!(benches);
