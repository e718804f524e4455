//! `#[tool]` expands cleanly under clippy's pedantic and nursery groups and
//! the restriction lints generated code could trip.
//!
//! `cargo clippy --all-targets` checks this file: the lints `serde_derive`
//! allows on its own impls, a tool type that cannot be `non_exhaustive`, a
//! closure around the user's own checks. The user's code here is written
//! to pass them too (so it spells out its `return`s).

#![deny(
    clippy::pedantic,
    clippy::nursery,
    clippy::absolute_paths,
    clippy::exhaustive_structs,
    clippy::implicit_return,
    clippy::min_ident_chars,
    clippy::missing_docs_in_private_items,
    clippy::std_instead_of_core,
    clippy::used_underscore_binding,
    clippy::used_underscore_items
)]
#![allow(clippy::needless_return)]

use tool_core::{ToolContext, ToolRegistry, Violation, tool};

/// The application's state.
#[non_exhaustive]
pub struct App {
    /// What to greet with.
    pub greeting: String,
}

/// Greet someone by name.
#[tool(read_only, output_schema)]
#[must_use]
pub fn greet(
    ctx: &ToolContext<App>,
    /// Who to greet.
    name: String,
    /// How many times.
    #[serde(default)]
    times: u8,
) -> String {
    let mut greeting = name;
    greeting.insert_str(0, &format!("{} ", ctx.state().greeting));
    return greeting.repeat(usize::from(times));
}

/// Refuses an empty word.
fn not_empty(word: &str) -> Result<(), Violation> {
    if word.is_empty() {
        return Err(Violation::for_argument("word", "is empty"));
    }
    return Ok(());
}

/// Count the letters of a word.
#[tool(validate = not_empty(word))]
#[must_use]
pub fn count_letters(
    /// The word.
    word: String,
) -> usize {
    return word.into_bytes().len();
}

/// Describe the hour.
#[tool(context = App, output_schema, validate = Hour::check)]
#[derive(serde::Deserialize, schemars::JsonSchema)]
#[non_exhaustive]
pub struct Hour {
    /// The hour, 0 to 23.
    pub hour: u8,
}

impl Hour {
    /// Refuses an hour past 23.
    fn check(&self) -> Result<(), Violation> {
        if self.hour > 23 {
            return Err(Violation::for_argument("hour", "is past 23"));
        }
        return Ok(());
    }

    /// Greets at the hour.
    fn run(self, ctx: &ToolContext<App>) -> String {
        return format!("{} at {}", ctx.state().greeting, self.hour);
    }
}

#[tokio::test]
async fn strict_lints_leave_the_tools_working() {
    let registry = ToolRegistry::<App>::new()
        .with(Greet)
        .with(CountLetters)
        .with(HourTool);
    let ctx = ToolContext::new(App {
        greeting: "hi".to_owned(),
    });
    let calls = [
        (
            "greet",
            serde_json::json!({"name": "Ada", "times": 1}),
            "hi Ada",
        ),
        ("count_letters", serde_json::json!({"word": "tool"}), "4"),
        ("hour", serde_json::json!({"hour": 9}), "hi at 9"),
    ];
    for (name, args, expected) in calls {
        let result = registry.call(&ctx, name, args).await;
        assert_eq!(result.model_text(), expected, "{name}");
    }
}
