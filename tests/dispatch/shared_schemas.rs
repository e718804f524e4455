//! A `#[tool]`'s definition and schemas are made at its first registration
//! in the process and shared by every registry that holds it afterwards;
//! a hand-written tool's are read from it at each registration.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use tool_core::registry::RegistryError;
use tool_core::{ToolContext, ToolRegistry, ToolResult, TypedTool, tool};

static MADE: AtomicUsize = AtomicUsize::new(0);

fn counted_schema() -> Value {
    MADE.fetch_add(1, Ordering::SeqCst);
    json!({
        "type": "object",
        "properties": {"sides": {"type": "integer", "minimum": 2}},
        "required": ["sides"],
    })
}

/// Roll a die.
#[tool(tier = Observe, schema = counted_schema())]
fn roll_counted(sides: u32) -> u32 {
    sides / 2 + 1
}

#[tokio::test]
async fn a_tools_schema_is_made_once_and_every_registry_checks_with_it() {
    let first: ToolRegistry = ToolRegistry::new().with(RollCounted);
    let second: ToolRegistry = ToolRegistry::new().with(RollCounted);
    let other_thread = std::thread::spawn(|| ToolRegistry::<u8>::new().with(RollCounted))
        .join()
        .expect("registered");
    assert_eq!(MADE.load(Ordering::SeqCst), 1);
    assert!(Arc::ptr_eq(
        &first.tool_definitions()[0],
        &second.tool_definitions()[0]
    ));
    assert!(Arc::ptr_eq(
        &first.tool_definitions()[0],
        &other_thread.tool_definitions()[0]
    ));
    assert_eq!(
        first.tool_definitions()[0].input_schema["properties"]["sides"]["minimum"],
        2
    );
    // Each registry checks the arguments with the shared schema.
    let refused = second
        .call(&ToolContext::new(()), "roll_counted", json!({"sides": 1}))
        .await;
    assert_eq!(
        refused.model_text(),
        "invalid arguments for tool `roll_counted`: argument `sides` at `/sides`: must be at least 2, got 1. Correct the arguments and call the tool again."
    );
    let rolled = other_thread
        .call(&ToolContext::new(7), "roll_counted", json!({"sides": 6}))
        .await;
    assert_eq!(rolled.model_text(), "4");
}

/// A schema whose property is not a schema.
#[tool(schema = json!({"type": "object", "properties": {"n": {"type": 5}}}))]
fn broken(n: u32) -> u32 {
    n
}

#[test]
fn a_refused_schema_is_refused_at_every_registration() {
    for _ in 0..2 {
        let error = ToolRegistry::<()>::new()
            .register(Broken)
            .expect_err("refused");
        assert!(matches!(error, RegistryError::InvalidSchema { .. }));
        assert_eq!(
            error.to_string(),
            "the input schema of tool `broken` is not a valid JSON Schema: 5 is not valid under any of the schemas listed in the 'anyOf' keyword"
        );
    }
}

/// A hand-written tool whose schema says how many times it was asked.
struct Asked(Arc<AtomicUsize>);

impl TypedTool for Asked {
    type Input = Value;
    type Output = ToolResult;
    fn name(&self) -> &str {
        "asked"
    }
    fn description(&self) -> &str {
        "Says how often its schema was asked for."
    }
    fn input_schema(&self) -> Value {
        let asked = self.0.fetch_add(1, Ordering::SeqCst) + 1;
        json!({"type": "object", "description": format!("asked {asked} times")})
    }
    async fn execute(&self, _ctx: &ToolContext, _input: Value) -> ToolResult {
        ToolResult::text("")
    }
}

#[test]
fn a_hand_written_tools_schema_is_read_from_it_at_each_registration() {
    let asked = Arc::new(AtomicUsize::new(0));
    let first: ToolRegistry = ToolRegistry::new().with(Asked(Arc::clone(&asked)));
    let second: ToolRegistry = ToolRegistry::new().with(Asked(asked));
    assert_eq!(
        first.tool_definitions()[0].input_schema["description"],
        "asked 1 times"
    );
    assert_eq!(
        second.tool_definitions()[0].input_schema["description"],
        "asked 2 times"
    );
}
