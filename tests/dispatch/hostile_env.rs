//! `#[tool]` expands cleanly where a user's own `Result`, `Option`, `Some`,
//! `Box` and `core` shadow the standard ones, at module and at function
//! scope, with every warning an error: generated code names std items only
//! through tool-core's private module.

#![deny(warnings)]

#[allow(dead_code)]
struct Result;
#[allow(dead_code)]
struct Option;
#[allow(dead_code)]
struct Some;
#[allow(dead_code)]
struct Box;
#[allow(dead_code)]
mod core {}

use tool_core::{ToolContext, ToolRegistry, tool};

/// The application's state.
pub struct App {
    greeting: String,
}

/// Greet someone by name.
#[tool(read_only, timeout = "1s", scopes = ["greet"], title = "Greeter")]
pub async fn greet(
    ctx: &ToolContext<App>,
    /// Who to greet.
    name: String,
    /// How many times.
    times: ::std::option::Option<u8>,
) -> ::std::result::Result<String, String> {
    let times = times.unwrap_or(1) as usize;
    ::std::result::Result::Ok(format!("{} {name}", ctx.state().greeting).repeat(times))
}

/// Count the letters of a word.
#[tool(schema = serde_json::json!({"type": "object", "properties": {"word": {"type": "string"}}}))]
fn count_letters(word: String) -> usize {
    word.len()
}

/// Shout a word.
#[tool]
#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct Shout {
    /// The word.
    word: String,
}

impl Shout {
    fn run(self) -> String {
        self.word.to_uppercase()
    }
}

/// A word and its length.
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Measured {
    word: String,
    letters: usize,
}

fn not_empty(
    word: &str,
    ctx: &ToolContext<App>,
) -> ::std::result::Result<(), tool_core::Violation> {
    let _ = ctx.state();
    if word.is_empty() {
        return ::std::result::Result::Err(tool_core::Violation::for_argument("word", "is empty"));
    }
    ::std::result::Result::Ok(())
}

/// Measure a word.
#[tool(output_schema, validate = not_empty(word, ctx))]
pub fn measure(
    ctx: &ToolContext<App>,
    /// The word.
    word: String,
) -> ::std::result::Result<Measured, String> {
    let _ = ctx;
    let letters = word.len();
    ::std::result::Result::Ok(Measured { word, letters })
}

#[tokio::test]
async fn expansions_compile_and_run_in_a_hostile_scope() {
    /// Add two numbers.
    #[tool]
    fn add(a: i64, b: i64) -> ::std::result::Result<i64, ::std::string::String> {
        a.checked_add(b).ok_or_else(|| "overflow".to_owned())
    }

    /// Describe the hour.
    #[tool(context = App, output_schema, allow_unknown_arguments, validate = Hour::check(self, ctx))]
    #[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
    struct Hour {
        /// The hour, 0 to 23.
        hour: u8,
    }

    impl Hour {
        fn check(
            &self,
            ctx: &ToolContext<App>,
        ) -> ::std::result::Result<(), ::std::vec::Vec<tool_core::Violation>> {
            let _ = ctx;
            let _ = self.hour;
            ::std::result::Result::Ok(())
        }

        async fn run(self, ctx: &ToolContext<App>) -> String {
            format!("{} at {}", ctx.state().greeting, self.hour)
        }
    }

    let registry = ToolRegistry::<App>::builder()
        .with(Greet)
        .with(CountLetters)
        .with(ShoutTool)
        .with(Add)
        .with(HourTool)
        .with(Measure)
        .approval(tool_core::policy::ApproveAll)
        .build();
    let ctx = ToolContext::builder(App {
        greeting: "hi".to_owned(),
    })
    .scopes(["greet"])
    .build();
    let calls = [
        (
            "greet",
            serde_json::json!({"name": "Ada", "times": 2}),
            "hi Adahi Ada",
        ),
        ("count_letters", serde_json::json!({"word": "tool"}), "4"),
        ("shout", serde_json::json!({"word": "hey"}), "HEY"),
        ("add", serde_json::json!({"a": 1, "b": 2}), "3"),
        (
            "hour",
            serde_json::json!({"hour": 9, "minute": 5}),
            "hi at 9",
        ),
        (
            "measure",
            serde_json::json!({"word": "tool"}),
            r#"{"word":"tool","letters":4}"#,
        ),
    ];
    for (name, args, expected) in calls {
        let result = registry.call(&ctx, name, args).await;
        assert!(!result.is_error(), "{name}: {}", result.model_text());
        assert_eq!(result.model_text(), expected, "{name}");
    }
}
