//! A tool's own checks of its input (`#[tool(validate = ...)]`): run after
//! the arguments are read and before the policy checks, with the context;
//! their refusal reaches the model as schema violations do.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_core::{ToolContext, ToolRegistry, Violation, tool};

/// The application: the accounts the caller owns.
struct Bank {
    owned: Vec<String>,
}

fn ctx() -> ToolContext<Bank> {
    ToolContext::new(Bank {
        owned: vec!["acc-1".into()],
    })
}

/// The range checks shared by the tools below.
fn range(
    ctx: &ToolContext<Bank>,
    account: &String,
    start: &u32,
    end: &u32,
) -> Result<(), Vec<Violation>> {
    let mut problems = Vec::new();
    if !ctx.state().owned.contains(account) {
        problems.push(Violation::for_argument(
            "account",
            "is not one of the caller's accounts",
        ));
    }
    if end < start {
        problems.push(Violation::for_argument("end", "must not be before `start`"));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Sum the transactions of an account between two days. Confirm tier and
/// no approval hook: a call past the checks is denied, which shows the
/// checks ran first.
#[tool(tier = Confirm, validate = range(ctx, account, start, end))]
fn sum(
    ctx: &ToolContext<Bank>,
    /// The account.
    account: String,
    /// The first day.
    start: u32,
    /// The last day.
    end: u32,
) -> String {
    let _ = ctx;
    format!("{account}: {}", end - start)
}

/// The same with an attribute on a parameter (read through a derived
/// input struct).
#[tool(tier = Confirm, validate = range(ctx, acct, start, end), name = "sum_renamed")]
fn sum_attr(
    ctx: &ToolContext<Bank>,
    /// The account.
    #[serde(rename = "account")]
    acct: String,
    /// The first day.
    start: u32,
    /// The last day.
    end: u32,
) -> String {
    let _ = ctx;
    format!("{acct}: {}", end - start)
}

/// Sum the transactions of an account between two days.
#[tool(tier = Confirm, context = Bank, validate = Period::check(self, ctx))]
#[derive(Deserialize, Serialize, JsonSchema)]
struct Period {
    /// The account.
    account: String,
    /// The first day.
    start: u32,
    /// The last day.
    end: u32,
}

impl Period {
    fn check(&self, ctx: &ToolContext<Bank>) -> Result<(), Violation> {
        range(ctx, &self.account, &self.start, &self.end).map_err(|mut problems| problems.remove(0))
    }

    fn run(self, _ctx: &ToolContext<Bank>) -> String {
        format!("{}: {}", self.account, self.end - self.start)
    }
}

async fn text(name: &str, args: Value) -> String {
    let registry = ToolRegistry::<Bank>::new()
        .with(Sum)
        .with(SumAttr)
        .with(PeriodTool);
    registry
        .call(&ctx(), name, args)
        .await
        .model_text()
        .into_owned()
}

#[tokio::test]
async fn a_functions_own_checks_refuse_before_the_policy() {
    for tool in ["sum", "sum_renamed"] {
        assert_eq!(
            text(tool, json!({"account": "acc-2", "start": 5, "end": 2})).await,
            format!(
                "invalid arguments for tool `{tool}`: argument `account` at `/account`: is not one of the caller's accounts; argument `end` at `/end`: must not be before `start`. Correct the arguments and call the tool again."
            ),
            "{tool}"
        );
        // Arguments that do not read never reach the checks.
        assert_eq!(
            text(tool, json!({"account": "acc-1", "start": "five", "end": 2})).await,
            format!(
                "invalid arguments for tool `{tool}`: argument `start` at `/start`: expected an integer, got a string `five`. Correct the arguments and call the tool again."
            ),
            "{tool}"
        );
        // Accepted input goes on to the policy: Confirm, no hook.
        let denied = text(tool, json!({"account": "acc-1", "start": 2, "end": 5})).await;
        assert!(
            denied.starts_with(&format!("the call to tool `{tool}` was denied")),
            "{denied}"
        );
    }
}

#[tokio::test]
async fn a_structs_own_checks_refuse_before_the_policy() {
    assert_eq!(
        text("period", json!({"account": "acc-1", "start": 5, "end": 2})).await,
        "invalid arguments for tool `period`: argument `end` at `/end`: must not be before `start`. Correct the arguments and call the tool again."
    );
    let denied = text("period", json!({"account": "acc-1", "start": 2, "end": 5})).await;
    assert!(
        denied.starts_with("the call to tool `period` was denied"),
        "{denied}"
    );
}

/// The checks of a tool with a context that need none of it.
fn ordered(start: &u32, end: &u32) -> Result<(), Violation> {
    if end < start {
        return Err(Violation::for_argument("end", "must not be before `start`"));
    }
    Ok(())
}

/// Count the days between two days. Its checks take the parameters, not
/// the context it has.
#[tool(tier = Observe, validate = ordered)]
fn days_between(
    ctx: &ToolContext<Bank>,
    /// The first day.
    start: u32,
    /// The last day.
    end: u32,
) -> u32 {
    let _ = ctx.state();
    end - start
}

/// The caller owns the account: checks that name what they take.
fn owned(account: &String, bank: &ToolContext<Bank>) -> Result<(), Violation> {
    if bank.state().owned.contains(account) {
        Ok(())
    } else {
        Err(Violation::for_argument(
            "account",
            "is not one of the caller's accounts",
        ))
    }
}

/// The balance of an account on a day.
#[tool(tier = Observe, validate = owned(account, ctx))]
fn balance(
    /// The day.
    day: u32,
    ctx: &ToolContext<Bank>,
    /// The account.
    account: String,
) -> String {
    let _ = ctx;
    format!("{account} on day {day}: 0")
}

/// Count the days of a window.
#[tool(context = Bank, tier = Observe, validate = ordered(start, end))]
#[derive(Deserialize, JsonSchema)]
struct Window {
    /// The first day.
    start: u32,
    /// The last day.
    end: u32,
}

impl Window {
    fn run(self, _ctx: &ToolContext<Bank>) -> u32 {
        self.end - self.start
    }
}

/// Count the days of a window, checked as a whole.
#[tool(context = Bank, tier = Observe, validate = Span::check)]
#[derive(Deserialize, JsonSchema)]
struct Span {
    /// The first day.
    start: u32,
    /// The last day.
    end: u32,
}

impl Span {
    fn check(&self) -> Result<(), Violation> {
        ordered(&self.start, &self.end)
    }

    fn run(self, _ctx: &ToolContext<Bank>) -> u32 {
        self.end - self.start
    }
}

#[tokio::test]
async fn checks_take_what_they_name_and_the_context_only_when_named() {
    let registry = ToolRegistry::<Bank>::new()
        .with(DaysBetween)
        .with(Balance)
        .with(WindowTool)
        .with(SpanTool);
    let ctx = ctx();
    for tool in ["days_between", "window", "span"] {
        let refused = registry
            .call(&ctx, tool, json!({"start": 5, "end": 2}))
            .await;
        assert_eq!(
            refused.model_text(),
            format!(
                "invalid arguments for tool `{tool}`: argument `end` at `/end`: must not be before `start`. Correct the arguments and call the tool again."
            ),
            "{tool}"
        );
        let passed = registry
            .call(&ctx, tool, json!({"start": 2, "end": 5}))
            .await;
        assert_eq!(passed.model_text(), "3", "{tool}");
    }
    let refused = registry
        .call(&ctx, "balance", json!({"day": 1, "account": "acc-2"}))
        .await;
    assert_eq!(
        refused.model_text(),
        "invalid arguments for tool `balance`: argument `account` at `/account`: is not one of the caller's accounts. Correct the arguments and call the tool again."
    );
    let passed = registry
        .call(&ctx, "balance", json!({"day": 1, "account": "acc-1"}))
        .await;
    assert_eq!(passed.model_text(), "acc-1 on day 1: 0");
}
