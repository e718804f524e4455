//! Unknown arguments: one rule for both forms of `#[tool]`. A function's
//! parameters and a struct's fields are all the arguments a tool reads;
//! any other is refused in the same words, by the schema's check and, with
//! validation off, by the reading itself, unless a struct says
//! `#[tool(allow_unknown_arguments)]`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tool_core::error::MAX_ECHO_CHARS;
use tool_core::registry::RegistryBuilder;
use tool_core::registry::Validation;
use tool_core::{ToolContext, ToolRegistry, tool};

/// Get the weather for a city.
#[tool(tier = Observe)]
fn weather_fn(
    /// The city.
    city: String,
    /// Days ahead.
    days: Option<u8>,
) -> String {
    format!("{city} {days:?}")
}

/// Get the weather for a city.
#[tool(tier = Observe)]
#[derive(Deserialize, JsonSchema)]
struct WeatherStruct {
    /// The city.
    city: String,
    /// Days ahead.
    days: Option<u8>,
}

impl WeatherStruct {
    fn run(self) -> String {
        format!("{} {:?}", self.city, self.days)
    }
}

/// Record an event with whatever labels it has.
#[tool(tier = Observe, allow_unknown_arguments)]
#[derive(Deserialize, JsonSchema)]
struct Record {
    /// What happened.
    event: String,
}

impl Record {
    fn run(self) -> String {
        self.event
    }
}

/// Tag a resource with any labels.
#[tool(tier = Observe)]
#[derive(Deserialize, JsonSchema)]
struct Tag {
    /// The resource.
    resource: String,
    /// Every other argument: a label.
    #[serde(flatten)]
    labels: BTreeMap<String, String>,
}

impl Tag {
    fn run(self) -> String {
        format!("{} {:?}", self.resource, self.labels)
    }
}

/// Get the weather for a city, by a schema written by hand.
#[tool(tier = Observe, schema = json!({"type": "object", "properties": {"city": {"type": "string"}}}))]
#[derive(Deserialize)]
struct WeatherByHand {
    city: String,
}

impl WeatherByHand {
    fn run(self) -> String {
        self.city
    }
}

fn registry() -> ToolRegistry {
    ToolRegistry::new()
        .with(WeatherFn)
        .with(WeatherStructTool)
        .with(RecordTool)
        .with(TagTool)
        .with(WeatherByHandTool)
}

async fn text(registry: &ToolRegistry, tool: &str, args: Value) -> String {
    registry
        .call(&ToolContext::new(()), tool, args)
        .await
        .model_text()
        .into_owned()
}

fn refusal(tool: &str, problem: &str) -> String {
    format!(
        "invalid arguments for tool `{tool}`: {problem}. Correct the arguments and call the tool again."
    )
}

#[tokio::test]
async fn a_struct_refuses_an_unknown_argument_in_a_functions_words() {
    let args = json!({"city": "Paris", "town": "Lyon"});
    for (registry, problem) in [
        (
            registry(),
            "unknown argument `town`; expected one of `city`, `days`",
        ),
        // Validation off: the reading refuses it, in serde's words.
        (
            RegistryBuilder::from(registry())
                .validation(Validation::Off)
                .build(),
            "unknown argument `town`, expected `city` or `days`",
        ),
    ] {
        for tool in ["weather_fn", "weather_struct"] {
            assert_eq!(
                text(&registry, tool, args.clone()).await,
                refusal(tool, problem),
                "{tool}"
            );
            assert_eq!(
                text(&registry, tool, json!({"city": "Paris", "days": 1})).await,
                "Paris Some(1)",
                "{tool}"
            );
        }
    }
}

#[tokio::test]
async fn a_structs_refusal_repeats_the_key_bounded() {
    let key = format!("`{}", "k".repeat(500));
    let echoed = format!("\\u{{60}}{}…", "k".repeat(MAX_ECHO_CHARS - 7));
    let args = json!({"city": "Paris", key: 1});
    let registry = RegistryBuilder::from(registry())
        .validation(Validation::Off)
        .build();
    for tool in ["weather_fn", "weather_struct"] {
        assert_eq!(
            text(&registry, tool, args.clone()).await,
            refusal(
                tool,
                &format!("unknown argument `{echoed}`, expected `city` or `days`")
            ),
            "{tool}"
        );
    }
}

#[tokio::test]
async fn a_structs_derived_schema_is_closed_as_a_functions_is() {
    let registry = registry();
    for tool in ["weather_fn", "weather_struct"] {
        let info = registry.info(tool).expect("registered");
        assert_eq!(
            info.definition.input_schema["additionalProperties"],
            json!(false),
            "{tool}"
        );
    }
    // The same parameters, the same schema.
    let function = &registry
        .info("weather_fn")
        .expect("registered")
        .definition
        .input_schema;
    let structure = &registry
        .info("weather_struct")
        .expect("registered")
        .definition
        .input_schema;
    assert_eq!(structure, function);
}

#[tokio::test]
async fn a_struct_that_allows_unknown_arguments_reads_them_and_says_so() {
    let info_schema = registry()
        .info("record")
        .expect("registered")
        .definition
        .input_schema
        .clone();
    assert_eq!(info_schema.get("additionalProperties"), None);
    for registry in [
        registry(),
        RegistryBuilder::from(registry())
            .validation(Validation::Off)
            .build(),
    ] {
        assert_eq!(
            text(
                &registry,
                "record",
                json!({"event": "deploy", "env": "prod"})
            )
            .await,
            "deploy"
        );
    }
}

#[tokio::test]
async fn a_flattened_map_keeps_the_arguments_it_collects() {
    let registry = registry();
    let schema = &registry
        .info("tag")
        .expect("registered")
        .definition
        .input_schema;
    assert_ne!(schema.get("additionalProperties"), Some(&json!(false)));
    for registry in [
        registry,
        RegistryBuilder::from(self::registry())
            .validation(Validation::Off)
            .build(),
    ] {
        assert_eq!(
            text(
                &registry,
                "tag",
                json!({"resource": "vm-1", "team": "infra"})
            )
            .await,
            r#"vm-1 {"team": "infra"}"#
        );
    }
}

#[tokio::test]
async fn a_schema_written_by_hand_is_as_written_and_the_reading_still_refuses() {
    let registry = registry();
    let schema = &registry
        .info("weather_by_hand")
        .expect("registered")
        .definition
        .input_schema;
    assert_eq!(schema.get("additionalProperties"), None);
    assert_eq!(
        text(
            &registry,
            "weather_by_hand",
            json!({"city": "Paris", "town": "Lyon"})
        )
        .await,
        refusal(
            "weather_by_hand",
            "unknown argument `town`, expected `city`"
        )
    );
}
