//! Views: the tools one request or one caller may see, and only they.

use std::sync::Arc;

use serde_json::{Value, json};
use tool_core::provider::Provider;
use tool_core::registry::ToolCall;
use tool_core::toolset::Select;
use tool_core::{BoxFuture, Tool, ToolContext, ToolRegistry, ToolResult, tool};

/// Add two numbers.
#[tool(read_only, tags = ["math"])]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Multiply two numbers.
#[tool(read_only, tags = ["math", "slow"])]
fn mul(a: i64, b: i64) -> i64 {
    a * b
}

/// Read a file.
#[tool(read_only, tags = ["files"], scopes = ["files:read"])]
fn read_file(path: String) -> String {
    format!("read {path}")
}

/// Write a file.
#[tool(tags = ["files"], scopes = ["files:read", "files:write"])]
fn write_file(path: String) -> String {
    format!("wrote {path}")
}

/// A tool only the admin may use.
struct Admin;

impl Tool for Admin {
    fn name(&self) -> &str {
        "admin"
    }
    fn description(&self) -> &str {
        "Administer."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object"})
    }
    fn check_available(&self, _: &ToolContext) -> Result<(), String> {
        Err("only for the admin".into())
    }
    fn call<'a>(&'a self, _: &'a ToolContext, _: Value) -> BoxFuture<'a, ToolResult> {
        Box::pin(async { ToolResult::text("done") })
    }
}

fn registry() -> ToolRegistry {
    ToolRegistry::new()
        .with(Add)
        .with(Mul)
        .with(ReadFile)
        .with(WriteFile)
        .with(Admin)
}

#[test]
fn a_view_picks_by_name_and_by_tag_in_the_registrys_order() {
    let registry = registry();
    let named = registry.view(Select::all().names(["read_file", "add", "nope", "add"]));
    assert_eq!(named.names().collect::<Vec<_>>(), ["add", "read_file"]);
    let tagged = registry.view(Select::all().tags(["files", "slow"]));
    assert_eq!(
        tagged.names().collect::<Vec<_>>(),
        ["mul", "read_file", "write_file"]
    );
    let both = registry.view(Select::all().names(["admin"]).tags(["math"]));
    assert_eq!(both.names().collect::<Vec<_>>(), ["add", "mul", "admin"]);
    let all = registry.view(Select::all());
    assert_eq!(all.len(), 5);
    assert!(registry.view(Select::all().tags(["nothing"])).is_empty());
}

#[test]
fn a_callers_view_holds_only_what_it_may_call() {
    let registry = registry();
    let nobody = ToolContext::new(());
    assert_eq!(
        registry
            .view(Select::all().caller(&nobody))
            .names()
            .collect::<Vec<_>>(),
        ["add", "mul"]
    );
    let reader = ToolContext::builder(()).scopes(["files:read"]).build();
    assert_eq!(
        registry
            .view(Select::all().caller(&reader))
            .names()
            .collect::<Vec<_>>(),
        ["add", "mul", "read_file"]
    );
    let writer = ToolContext::builder(())
        .scopes(["files:write", "files:read"])
        .build();
    assert_eq!(
        registry
            .view(Select::all().tags(["files"]).caller(&writer))
            .names()
            .collect::<Vec<_>>(),
        ["read_file", "write_file"]
    );
    // The same as the registry's own list for a caller.
    let listed: Vec<String> = registry
        .view(Select::all().caller(&writer))
        .tool_definitions()
        .map(|definition| definition.name.clone())
        .collect();
    assert_eq!(
        registry
            .view(Select::all().caller(&writer))
            .names()
            .collect::<Vec<_>>(),
        listed
    );
}

#[tokio::test]
async fn a_view_calls_its_tools_and_no_other() {
    let registry = registry();
    let ctx = ToolContext::new(());
    let math = registry.view(Select::all().tags(["math"]));
    assert_eq!(
        math.call(&ctx, "mul", json!({"a": 3, "b": 4}))
            .await
            .model_text(),
        "12"
    );
    assert_eq!(
        math.call(&ctx, "ad", json!({"a": 3, "b": 4}))
            .await
            .model_text(),
        "unknown tool `ad`. Did you mean `add`? Available tools: `add`, `mul`."
    );
    assert_eq!(
        math.call(&ctx, "read_file", json!({"path": "a"}))
            .await
            .model_text(),
        "unknown tool `read_file`. Available tools: `add`, `mul`."
    );
    let results = math
        .call_all(
            &ctx,
            [
                ToolCall::new("add", json!({"a": 1, "b": 2})),
                ToolCall::new("write_file", json!({"path": "a"})),
            ],
        )
        .await;
    assert_eq!(results[0].model_text(), "3");
    assert!(results[1].is_error());
}

#[test]
fn a_views_definitions_are_its_tools_and_made_once() {
    let registry = registry();
    let math = registry.view(Select::all().tags(["math"]));
    for provider in [
        Provider::OpenAiChat { strict: true },
        Provider::OpenAiResponses { strict: false },
        Provider::Anthropic { strict: false },
        Provider::Gemini { openapi: false },
        Provider::Mcp,
    ] {
        let first = provider.definitions(&math).unwrap();
        let again = provider.definitions(&math).unwrap();
        assert!(Arc::ptr_eq(&first, &again), "{provider:?}: kept");
        // As a registry of those tools alone gives them.
        let alone: ToolRegistry = ToolRegistry::new().with(Add).with(Mul);
        let of_view = first.as_json();
        let of_registry = provider.definitions(&alone).unwrap().as_json().clone();
        assert_eq!(*of_view, of_registry, "{provider:?}");
    }
}
