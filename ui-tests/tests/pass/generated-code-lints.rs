//! `#[tool]` expands cleanly under lints a user may deny in their own code,
//! serde_derive's allowances among them: every form of the expansion.

#![deny(
    warnings,
    deprecated_safe,
    elided_lifetimes_in_paths,
    explicit_outlives_requirements,
    keyword_idents,
    let_underscore_drop,
    macro_use_extern_crate,
    meta_variable_misuse,
    missing_copy_implementations,
    missing_debug_implementations,
    missing_docs,
    non_ascii_idents,
    non_upper_case_globals,
    redundant_imports,
    redundant_lifetimes,
    rust_2018_idioms,
    single_use_lifetimes,
    trivial_casts,
    trivial_numeric_casts,
    unit_bindings,
    unnameable_types,
    unreachable_pub,
    unsafe_code,
    unused_attributes,
    unused_import_braces,
    unused_lifetimes,
    unused_macro_rules,
    unused_qualifications,
    unused_results,
    variant_size_differences
)]

use tool_core::{tool, ToolContext, ToolRegistry, Violation};

/// The application's state.
#[derive(Debug)]
pub struct App {
    /// What to greet with.
    pub greeting: String,
}

/// Greet someone by name.
#[tool(read_only, timeout = "1s", title = "Greeter")]
pub async fn greet(
    ctx: &ToolContext<App>,
    /// Who to greet.
    name: String,
    /// How many times.
    times: Option<u8>,
) -> Result<String, String> {
    let times = usize::from(times.unwrap_or(1));
    Ok(format!("{} {name}", ctx.state().greeting).repeat(times))
}

/// Add two numbers.
#[tool]
pub fn add(a: i64, b: i64) -> Option<i64> {
    a.checked_add(b)
}

/// Repeat a word.
#[tool(output_schema)]
pub fn repeat(
    /// The word.
    #[serde(rename = "text", default)]
    word: String,
    /// How many times.
    count: u8,
) -> String {
    word.repeat(usize::from(count))
}

/// Count the letters of a word.
#[tool(schema = serde_json::json!({"type": "object", "properties": {"word": {"type": "string"}}}))]
pub fn count_letters(word: String) -> usize {
    word.len()
}

fn not_empty(word: &str) -> Result<(), Violation> {
    if word.is_empty() {
        return Err(Violation::for_argument("word", "is empty"));
    }
    Ok(())
}

/// Shout a word.
#[tool(output_schema, validate = not_empty(word))]
pub fn shout(
    /// The word.
    word: String,
) -> Result<String, String> {
    Ok(word.to_uppercase())
}

/// Describe the hour.
#[tool(context = App, output_schema, validate = Hour::check)]
#[derive(Clone, Copy, Debug, serde::Deserialize, schemars::JsonSchema)]
pub struct Hour {
    /// The hour, 0 to 23.
    hour: u8,
}

impl Hour {
    fn check(&self) -> Result<(), Violation> {
        if self.hour > 23 {
            return Err(Violation::for_argument("hour", "is past 23"));
        }
        Ok(())
    }

    async fn run(self, ctx: &ToolContext<App>) -> String {
        format!("{} at {}", ctx.state().greeting, self.hour)
    }
}

/// Whisper a word.
#[tool(schema = serde_json::json!({"type": "object"}))]
#[derive(Debug, serde::Deserialize)]
pub struct Whisper {
    /// The word.
    word: String,
}

impl Whisper {
    fn run(self) -> String {
        self.word.to_lowercase()
    }
}

fn main() {
    let registry = ToolRegistry::<App>::new()
        .with(Greet)
        .with(Add)
        .with(Repeat)
        .with(CountLetters)
        .with(Shout)
        .with(HourTool)
        .with(WhisperTool);
    assert_eq!(registry.tools().len(), 7);
}
