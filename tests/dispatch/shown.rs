//! What a caller is shown (a view for the caller, `Select::caller`):
//! the tools whose scopes it holds and whose availability check lets it;
//! a tool left out still answers a call with the refusal it always gave.

use serde::Deserialize;
use serde_json::{Value, json};
use tool_core::toolset::Select;
use tool_core::{ToolContext, ToolRegistry, ToolResult, TypedTool, tool};

/// Whoever calls, and whether their account is open.
struct Caller {
    open: bool,
}

/// Pay a bill.
#[tool(scopes = ["payments"])]
fn pay(amount: u32) -> String {
    format!("paid {amount}")
}

/// The balance, for an open account.
struct Balance;

#[derive(Deserialize)]
struct NoInput {}

impl TypedTool<Caller> for Balance {
    type Input = NoInput;
    type Output = ToolResult;

    fn name(&self) -> &str {
        "balance"
    }

    fn description(&self) -> &str {
        "The account's balance."
    }

    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {}})
    }

    fn check_available(&self, ctx: &ToolContext<Caller>) -> Result<(), String> {
        if ctx.state().open {
            Ok(())
        } else {
            Err("the account is closed".to_owned())
        }
    }

    async fn execute(&self, _ctx: &ToolContext<Caller>, _input: NoInput) -> ToolResult {
        ToolResult::text("12 EUR")
    }
}

/// The time.
#[tool(read_only)]
fn now() -> &'static str {
    "noon"
}

/// Whether `ctx` may call the tool of that name: a view of it alone, for
/// that caller.
fn may_call(registry: &ToolRegistry<Caller>, ctx: &ToolContext<Caller>, name: &str) -> bool {
    registry
        .view(Select::all().names([name]).caller(ctx))
        .contains(name)
}

/// Whether the tool's availability check lets `ctx` call it, whatever its
/// scopes.
fn available_to(registry: &ToolRegistry<Caller>, ctx: &ToolContext<Caller>, name: &str) -> bool {
    registry
        .view(Select::all().names([name]).available_to(ctx))
        .contains(name)
}

fn shown(registry: &ToolRegistry<Caller>, ctx: &ToolContext<Caller>) -> Vec<String> {
    let names: Vec<String> = registry
        .view(Select::all().caller(ctx))
        .tool_definitions()
        .map(|definition| definition.name.clone())
        .collect();
    for name in registry.names() {
        assert_eq!(
            may_call(registry, ctx, name),
            names.iter().any(|n| n == name),
            "{name}"
        );
    }
    names
}

#[tokio::test]
async fn a_caller_is_shown_only_the_tools_it_may_call() {
    let registry = ToolRegistry::new().with(Pay).with(Balance).with(Now);
    let closed = ToolContext::new(Caller { open: false });
    let open = ToolContext::new(Caller { open: true });
    let payer = ToolContext::builder(Caller { open: true })
        .scopes(["payments"])
        .build();
    assert_eq!(shown(&registry, &closed), ["now"]);
    assert_eq!(shown(&registry, &open), ["balance", "now"]);
    assert_eq!(shown(&registry, &payer), ["pay", "balance", "now"]);
    assert!(!may_call(&registry, &payer, "no_such_tool"));
    // Whatever the scopes: what a caller that can be given them is shown.
    let available = |ctx: &ToolContext<Caller>| -> Vec<&str> {
        registry
            .names()
            .filter(|name| available_to(&registry, ctx, name))
            .collect()
    };
    assert_eq!(available(&closed), ["pay", "now"]);
    assert_eq!(available(&open), ["pay", "balance", "now"]);
    assert!(!available_to(&registry, &open, "no_such_tool"));

    // A name that is no tool's: the caller is told only of what it is shown.
    assert_eq!(
        registry
            .call(&closed, "balanse", json!({}))
            .await
            .model_text(),
        "unknown tool `balanse`. Available tools: `now`."
    );
    assert_eq!(
        registry
            .call(&open, "balanse", json!({}))
            .await
            .model_text(),
        "unknown tool `balanse`. Did you mean `balance`? Available tools: `balance`, `now`."
    );

    // Called anyway: the refusals are as before.
    assert_eq!(
        registry
            .call(&closed, "balance", json!({}))
            .await
            .model_text(),
        "tool `balance` is not available: the account is closed"
    );
    assert_eq!(
        registry
            .call(&open, "pay", json!({"amount": 3}))
            .await
            .model_text(),
        "tool `pay` requires the scope `payments`, which this caller does not have; do not call it again"
    );
    assert_eq!(
        registry
            .call(&payer, "pay", json!({"amount": 3}))
            .await
            .model_text(),
        "paid 3"
    );
}
