//! A tool's own error stays with its result: the model reads its text, and
//! the application gets the error itself as the `ToolError`'s source, to
//! log or downcast, for a `#[tool]` function and a hand-written tool alike.

use std::error::Error as _;
use std::fmt;
use std::num::ParseIntError;

use serde::Deserialize;
use serde_json::{Value, json};
use tool_core::error::ErrorMessage;
use tool_core::{ToolContext, ToolError, ToolRegistry, TypedTool, tool};

/// A station the weather service does not know.
#[derive(Debug, PartialEq)]
struct NoStation {
    city: String,
}

impl fmt::Display for NoStation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no weather station in {}", self.city)
    }
}

impl std::error::Error for NoStation {}

/// Get the weather for a city.
#[tool]
fn weather(city: String) -> Result<String, NoStation> {
    Err(NoStation { city })
}

/// Get the weather for a city, failing in words only.
#[tool]
fn weather_in_words(city: String) -> Result<String, String> {
    Err(format!("no weather station in {city}"))
}

#[derive(Deserialize)]
struct Numbers {
    numbers: Vec<String>,
}

/// Adds numbers written as text; keeps the parse error as the source.
struct Add;

impl TypedTool for Add {
    type Input = Numbers;
    type Output = Result<i64, ErrorMessage>;
    fn name(&self) -> &str {
        "add"
    }
    fn description(&self) -> &str {
        "Add numbers written as text."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {"numbers": {"type": "array", "items": {"type": "string"}}}})
    }
    async fn execute(&self, _ctx: &ToolContext, input: Numbers) -> Self::Output {
        let mut total = 0;
        for number in &input.numbers {
            total += number.parse::<i64>().map_err(ErrorMessage::from_error)?;
        }
        Ok(total)
    }
}

/// The same, with the parse error as its `Err`: its text only.
struct AddInWords;

impl TypedTool for AddInWords {
    type Input = Numbers;
    type Output = Result<i64, ParseIntError>;
    fn name(&self) -> &str {
        "add_in_words"
    }
    fn description(&self) -> &str {
        "Add numbers written as text."
    }
    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {"numbers": {"type": "array", "items": {"type": "string"}}}})
    }
    async fn execute(&self, _ctx: &ToolContext, input: Numbers) -> Self::Output {
        input
            .numbers
            .iter()
            .map(|number| number.parse::<i64>())
            .sum()
    }
}

fn registry() -> ToolRegistry {
    ToolRegistry::new()
        .with(Weather)
        .with(WeatherInWords)
        .with(Add)
        .with(AddInWords)
}

#[tokio::test]
async fn a_tool_fn_error_is_the_source_and_its_text_what_the_model_reads() {
    let result = registry()
        .call(
            &ToolContext::new(()),
            "weather",
            json!({"city": "Atlantis"}),
        )
        .await;
    assert!(result.is_error());
    assert_eq!(result.model_text(), "no weather station in Atlantis");
    let error = result.tool_error().expect("a tool error");
    assert_eq!(
        error,
        &ToolError::Execution {
            tool: "weather".into(),
            message: "no weather station in Atlantis".into(),
        }
    );
    let source = error.source().expect("the tool's error");
    assert_eq!(
        source.downcast_ref::<NoStation>(),
        Some(&NoStation {
            city: "Atlantis".into()
        })
    );
}

#[tokio::test]
async fn an_error_that_is_only_display_has_no_source_and_the_same_text() {
    let result = registry()
        .call(
            &ToolContext::new(()),
            "weather_in_words",
            json!({"city": "Atlantis"}),
        )
        .await;
    assert_eq!(result.model_text(), "no weather station in Atlantis");
    assert!(
        result
            .tool_error()
            .expect("a tool error")
            .source()
            .is_none()
    );
}

#[tokio::test]
async fn a_hand_written_tool_keeps_the_error_of_an_error_message() {
    let registry = registry();
    let ctx = ToolContext::new(());
    let result = registry
        .call(&ctx, "add", json!({"numbers": ["1", "two"]}))
        .await;
    assert!(result.is_error());
    assert_eq!(result.model_text(), "invalid digit found in string");
    let error = result.tool_error().expect("a tool error");
    let source = error.source().expect("the parse error");
    assert!(source.downcast_ref::<ParseIntError>().is_some());

    let in_words = registry
        .call(&ctx, "add_in_words", json!({"numbers": ["1", "two"]}))
        .await;
    assert_eq!(in_words.model_text(), result.model_text());
    assert!(
        in_words
            .tool_error()
            .expect("a tool error")
            .source()
            .is_none()
    );

    let sum = registry
        .call(&ctx, "add", json!({"numbers": ["1", "2"]}))
        .await;
    assert_eq!(sum.model_text(), "3");
}
