// ---- tool-core: `ToolRegistry::new().with(Tool0)...`, and the MCP
// definitions (`Provider::Mcp.definitions`), made once and cached.

use tool_core::provider::{Definitions, Provider};

fn build() -> tool_core::ToolRegistry {
    tools100::registry()
}

fn list(registry: &tool_core::ToolRegistry) -> std::sync::Arc<Definitions> {
    Provider::Mcp.definitions(registry).expect("definitions")
}

/// Every provider's definitions, first and cached; and what registering a
/// tool does, piece by piece, on the same 100 schemas.
fn parts(reps: usize) {
    for provider in Provider::ALL {
        let (mut first, mut again) = (Vec::new(), Vec::new());
        for _ in 0..reps {
            let registry = build();
            let definitions = || {
                drop(black_box(
                    provider.definitions(&registry).expect("definitions"),
                ))
            };
            first.push(timed(definitions));
            again.push(timed(|| (0..100).for_each(|_| definitions())) / 100.0);
        }
        println!("provider_first_us:{provider}\t{:.2}", median(first));
        println!("provider_again_us:{provider}\t{:.4}", median(again));
    }

    let registry = build();
    let schemas: Vec<serde_json::Value> = registry
        .names()
        .map(|name| registry.info(name).unwrap().definition.input_schema.clone())
        .collect();
    // The schemas as values, as the registry keeps them.
    let before = Heap::now();
    let copies = schemas.clone();
    before.report_since("part_schemas");
    drop(black_box(copies));
    // Copying them: a lower bound on making them.
    let clone = (0..reps).map(|_| timed(|| schemas.clone()));
    println!("part_clone_us\t{:.1}", median(clone.collect()));
    // Checking each against the meta-schema (nothing is kept).
    let meta = (0..reps).map(|_| {
        timed(|| {
            for schema in &schemas {
                black_box(jsonschema::meta::validate(schema).is_ok());
            }
        })
    });
    println!("part_meta_us\t{:.1}", median(meta.collect()));
    // Compiling each into a validator, as a tool's first call does.
    let compile = || -> Vec<jsonschema::Validator> {
        schemas
            .iter()
            .map(|schema| {
                jsonschema::options()
                    .should_validate_formats(true)
                    .should_ignore_unknown_formats(true)
                    .build(schema)
                    .unwrap()
            })
            .collect()
    };
    let times = (0..reps).map(|_| timed(compile));
    println!("part_validators_us\t{:.1}", median(times.collect()));
    let before = Heap::now();
    let validators = compile();
    before.report_since("part_validators");
    drop(black_box(validators));
}

/// One piece of registration or calling in a process of its own: `meta`
/// checks one schema against the meta-schema, which makes jsonschema's
/// meta-schema validators (once per process) and runs its code; `validator`
/// compiles one schema into the validator a tool's first call makes (which
/// checks the schema against the meta-schema too).
fn rss_part(what: &str) -> Option<Box<dyn std::any::Any>> {
    let schema = serde_json::json!({
        "type": "object",
        "properties": {"query": {"type": "string", "description": "The text."}},
        "required": ["query"],
    });
    match what {
        "meta" => {
            let start = Instant::now();
            let valid = jsonschema::meta::validate(&schema).is_ok();
            println!("meta_first_us\t{:.1}", micros(start));
            Some(Box::new(valid))
        }
        "validator" => {
            let start = Instant::now();
            let validator = jsonschema::options()
                .should_validate_formats(true)
                .should_ignore_unknown_formats(true)
                .build(&schema)
                .unwrap();
            println!("validator_first_us\t{:.1}", micros(start));
            let valid = validator.is_valid(&serde_json::json!({"query": "text"}));
            Some(Box::new((validator, valid)))
        }
        _ => None,
    }
}

/// Forgets what tool-core keeps per process for each `#[tool]` (its
/// definition and checked schemas), as a new process would not have it.
fn forget() {
    tool_core::__private::forget_schemas();
}
