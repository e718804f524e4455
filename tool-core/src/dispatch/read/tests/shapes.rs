//! Enums, nested structs, `Vec`s of structs, `Option`s of enums, maps,
//! `#[serde]` attributes that change the shape, a context, a struct-form
//! tool: each called with a corpus of good and bad arguments, as text and
//! as a value, by a registry that checks every call's schema first and one
//! that checks it only when reading fails. All four must agree.

// The tools' inputs are read and printed whole (`Debug`), not field by field.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::runtime::Runtime;

use crate::dispatch::read::raw::normalize;
use crate::dispatch::settings::Validation;
use crate::registry::tool_registry::ToolRegistry;
use crate::tool;
use crate::tool::context::ToolContext;

#[derive(Deserialize, JsonSchema, Debug)]
#[serde(rename_all = "lowercase")]
enum Units {
    Celsius,
    Fahrenheit,
}

/// Get the weather.
#[tool]
async fn get_weather(city: String, units: Option<Units>) -> String {
    format!("{city} {units:?}")
}

#[derive(Deserialize, JsonSchema, Debug)]
struct Slot {
    /// The day.
    date: String,
    start_hour: u8,
    duration_minutes: u16,
}

/// Create an event.
#[tool]
fn create_event(title: String, when: Slot) -> String {
    format!("{title} {when:?}")
}

#[derive(Deserialize, JsonSchema, Debug)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Item {
    sku: String,
    quantity: u32,
    #[serde(default)]
    gift_wrap: bool,
}

/// Add items to an order.
#[tool]
fn add_items(order_id: u64, items: Vec<Item>) -> String {
    format!("{order_id} {items:?}")
}

/// Look a key up.
#[tool]
async fn lookup(ctx: &ToolContext<()>, key: String) -> String {
    format!("{key} {}", ctx.call_id().map(str::len).unwrap_or_default())
}

#[derive(Deserialize, JsonSchema, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Shape {
    Circle { radius: f64 },
    Square { side: f32 },
    Point,
}

#[derive(Deserialize, JsonSchema, Debug)]
#[serde(untagged)]
enum Target {
    Id(u32),
    Path(String),
}

#[derive(Deserialize, JsonSchema, Debug)]
enum Action {
    Move { dx: i8, dy: i8 },
    Rename(String),
    Stop,
}

/// Draw a shape.
#[tool(concurrency_safe)]
fn draw(
    shape: Shape,
    target: Target,
    action: Option<Action>,
    counts: BTreeMap<String, u8>,
    labels: HashMap<String, Slot>,
    letter: Option<char>,
) -> String {
    let labels: BTreeMap<_, _> = labels.into_iter().collect();
    format!("{shape:?} {target:?} {action:?} {counts:?} {labels:?} {letter:?}")
}

/// Search the docs.
#[tool]
#[derive(Deserialize, JsonSchema, Debug)]
#[allow(dead_code)]
struct SearchDocs {
    query: String,
    limit: Option<u32>,
    #[serde(rename = "sortBy")]
    sort_by: Option<Units>,
}

impl SearchDocs {
    async fn run(self) -> String {
        format!("{self:?}")
    }
}

fn registry(validation: Validation) -> ToolRegistry {
    ToolRegistry::builder()
        .with(GetWeather)
        .with(CreateEvent)
        .with(AddItems)
        .with(Lookup)
        .with(Draw)
        .with(SearchDocsTool)
        .validation(validation)
        .build()
}

const DRAW: &str = r#"{"shape":{"kind":"circle","radius":2},"target":7,"counts":{},"labels":{}}"#;

/// Per tool, arguments good and bad: enums and options of them.
const CASES: &[(&str, &str)] = &[
    ("get_weather", r#"{"city":"Paris","units":"celsius"}"#),
    ("get_weather", r#"{"city":"Paris"}"#),
    ("get_weather", r#"{"city":"Paris","units":null}"#),
    ("get_weather", r#"{"city":"Paris","units":"kelvin"}"#),
    ("get_weather", r#"{"city":"Paris","units":"Celsius"}"#),
    ("get_weather", r#"{"units":"celsius"}"#),
    ("get_weather", r#"{"city":3}"#),
    ("get_weather", r#"{"city":"Paris","country":"FR"}"#),
    ("get_weather", r#"{"city":"Paris","city":"Rome"}"#),
    ("get_weather", "[]"),
    ("get_weather", ""),
    ("get_weather", r#"{"city":"Paris""#),
];

/// The rest of the corpus: nested structs, `Vec`s of structs, a context,
/// tagged and untagged enums, maps, a struct-form tool.
const MORE_CASES: &[(&str, &str)] = &[
    (
        "create_event",
        r#"{"title":"T","when":{"date":"d","start_hour":9,"duration_minutes":30}}"#,
    ),
    (
        "create_event",
        r#"{"title":"T","when":{"date":"d","start_hour":9,"duration_minutes":30,"room":1}}"#,
    ),
    (
        "create_event",
        r#"{"title":"T","when":{"date":"d","start_hour":24.0,"duration_minutes":30}}"#,
    ),
    (
        "create_event",
        r#"{"title":"T","when":{"date":"d","start_hour":300,"duration_minutes":-1}}"#,
    ),
    (
        "create_event",
        r#"{"title":"T","when":{"date":"d","duration_minutes":30}}"#,
    ),
    ("create_event", r#"{"title":"T","when":"tomorrow"}"#),
    ("create_event", r#"{"title":"T","when":null}"#),
    (
        "add_items",
        r#"{"order_id":1,"items":[{"sku":"a","quantity":2},{"sku":"b","quantity":1,"giftWrap":true}]}"#,
    ),
    ("add_items", r#"{"order_id":1,"items":[]}"#),
    (
        "add_items",
        r#"{"order_id":1,"items":[{"sku":"a","quantity":2,"gift_wrap":true}]}"#,
    ),
    ("add_items", r#"{"order_id":1,"items":[{"sku":"a"}]}"#),
    (
        "add_items",
        r#"{"order_id":1,"items":[{"sku":"a","quantity":-2}]}"#,
    ),
    (
        "add_items",
        r#"{"order_id":-1,"items":[{"sku":"a","quantity":2}]}"#,
    ),
    (
        "add_items",
        r#"{"order_id":1,"items":{"sku":"a","quantity":2}}"#,
    ),
    (
        "add_items",
        r#"{"order_id":18446744073709551615,"items":[]}"#,
    ),
    (
        "add_items",
        r#"{"order_id":18446744073709551616,"items":[]}"#,
    ),
    ("lookup", r#"{"key":"k"}"#),
    ("lookup", r#"{"key":"k","other":1}"#),
    ("lookup", r#"{}"#),
    ("draw", DRAW),
    (
        "draw",
        r#"{"shape":{"kind":"square","side":1.5},"target":"/a","action":{"Move":{"dx":-1,"dy":2}},"counts":{"a":1},"labels":{"x":{"date":"d","start_hour":1,"duration_minutes":2}},"letter":"z"}"#,
    ),
    (
        "draw",
        r#"{"shape":{"kind":"point"},"target":7,"action":"Stop","counts":{},"labels":{}}"#,
    ),
    (
        "draw",
        r#"{"shape":{"kind":"point"},"target":7,"action":{"Rename":"n"},"counts":{},"labels":{}}"#,
    ),
    (
        "draw",
        r#"{"shape":{"kind":"hexagon"},"target":7,"counts":{},"labels":{}}"#,
    ),
    (
        "draw",
        r#"{"shape":{"kind":"circle"},"target":7,"counts":{},"labels":{}}"#,
    ),
    (
        "draw",
        r#"{"shape":{"radius":1},"target":7,"counts":{},"labels":{}}"#,
    ),
    (
        "draw",
        r#"{"shape":{"kind":"point"},"target":true,"counts":{},"labels":{}}"#,
    ),
    (
        "draw",
        r#"{"shape":{"kind":"point"},"target":-7,"counts":{},"labels":{}}"#,
    ),
    (
        "draw",
        r#"{"shape":{"kind":"point"},"target":7,"action":{"Move":{"dx":200,"dy":0}},"counts":{},"labels":{}}"#,
    ),
    (
        "draw",
        r#"{"shape":{"kind":"point"},"target":7,"action":{"Stop":null,"Rename":"n"},"counts":{},"labels":{}}"#,
    ),
    (
        "draw",
        r#"{"shape":{"kind":"point"},"target":7,"action":"Fly","counts":{},"labels":{}}"#,
    ),
    (
        "draw",
        r#"{"shape":{"kind":"point"},"target":7,"counts":{"a":256},"labels":{}}"#,
    ),
    (
        "draw",
        r#"{"shape":{"kind":"point"},"target":7,"counts":[],"labels":{}}"#,
    ),
    (
        "draw",
        r#"{"shape":{"kind":"point"},"target":7,"counts":{},"labels":{"x":{"date":"d"}}}"#,
    ),
    (
        "draw",
        r#"{"shape":{"kind":"point"},"target":7,"counts":{},"labels":{},"letter":"zz"}"#,
    ),
    (
        "draw",
        r#"{"shape":{"kind":"point"},"target":7,"counts":{},"labels":{},"letter":""}"#,
    ),
    (
        "search_docs",
        r#"{"query":"q","limit":3,"sortBy":"celsius"}"#,
    ),
    ("search_docs", r#"{"query":"q"}"#),
    ("search_docs", r#"{"query":"q","sort_by":"celsius"}"#),
    ("search_docs", r#"{"query":"q","limit":-3}"#),
    ("search_docs", r#"{"limit":3}"#),
    ("search_docs", r#"{"query":"q","query":"r"}"#),
    ("search_docs", r#" { "query" : "q" } "#),
    ("search_docs", r#"{"query":"q"} x"#),
    (
        "draw",
        r#"{"shape":{"kind":"circle","radius":1e400},"target":7,"counts":{},"labels":{}}"#,
    ),
];

/// Every case.
fn corpus() -> impl Iterator<Item = (&'static str, &'static str)> {
    CASES.iter().chain(MORE_CASES).copied()
}

/// What a call ends with, as the model and the application see it.
fn outcome(runtime: &Runtime, registry: &ToolRegistry, tool: &str, args: Value) -> String {
    let result = runtime.block_on(registry.call(&ToolContext::new(()), tool, args));
    format!("{result:?}")
}

#[test]
fn every_shape_ends_alike_whichever_way_it_is_read() {
    let runtime = Runtime::new().unwrap();
    let checked_first = registry(Validation::Always);
    let checked_on_failure = registry(Validation::Auto);
    for (tool, text) in corpus() {
        let as_text = || Value::String(text.to_owned());
        let expected = outcome(&runtime, &checked_first, tool, as_text());
        let mut ways = vec![
            ("always, text", expected.clone()),
            (
                "auto, text",
                outcome(&runtime, &checked_on_failure, tool, as_text()),
            ),
        ];
        // The same arguments as a value: what they are once read.
        if let Ok(value) = normalize(tool, as_text(), usize::MAX)
            && !text.trim().is_empty()
        {
            ways.push((
                "always, value",
                outcome(&runtime, &checked_first, tool, value.clone()),
            ));
            ways.push((
                "auto, value",
                outcome(&runtime, &checked_on_failure, tool, value),
            ));
        }
        for (way, got) in ways {
            assert_eq!(got, expected, "{tool} {text}: {way}");
        }
    }
}

#[test]
fn what_the_model_reads_of_a_refused_call_is_the_schemas_words() {
    let runtime = Runtime::new().unwrap();
    let registry = registry(Validation::Auto);
    let text = |tool: &str, args: &str| {
        let result = runtime.block_on(registry.call(
            &ToolContext::new(()),
            tool,
            Value::String(args.to_owned()),
        ));
        result.model_text().into_owned()
    };
    assert_eq!(
        text("get_weather", r#"{"city":"Paris","units":"kelvin"}"#),
        "invalid arguments for tool `get_weather`: argument `units` at `/units`: expected one of \
         `celsius`, `fahrenheit`, got `kelvin`. Correct the arguments and call the tool again."
    );
    assert_eq!(
        text(
            "create_event",
            r#"{"title":"T","when":{"date":"d","start_hour":300,"duration_minutes":30}}"#
        ),
        "invalid arguments for tool `create_event`: argument `when` at `/when/start_hour`: must be \
         at most 255, got 300. Correct the arguments and call the tool again."
    );
    assert_eq!(
        text("get_weather", r#"{"city":"Paris","units":"celsius"}"#),
        "Paris Some(Celsius)"
    );
    assert_eq!(
        text("search_docs", r#"{"query":"q","sortBy":"fahrenheit"}"#),
        "SearchDocs { query: \"q\", limit: None, sort_by: Some(Fahrenheit) }"
    );
    assert_eq!(
        outcome(&runtime, &registry, "draw", json!(DRAW)),
        outcome(
            &runtime,
            &registry,
            "draw",
            serde_json::from_str(DRAW).unwrap()
        )
    );
}

/// A name its `Deserialize` takes in any case, while its schema lists the
/// lower-case ones: reading does not imply this schema's `enum`.
#[derive(JsonSchema, Debug)]
#[serde(rename_all = "lowercase")]
enum Lenient {
    Celsius,
    Fahrenheit,
}

impl<'de> Deserialize<'de> for Lenient {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match String::deserialize(deserializer)?.to_lowercase().as_str() {
            "celsius" => Ok(Lenient::Celsius),
            "fahrenheit" => Ok(Lenient::Fahrenheit),
            other => Err(serde::de::Error::custom(format!("no unit {other}"))),
        }
    }
}

/// Convert a temperature.
#[tool]
fn convert(degrees: f64, to: Lenient) -> String {
    format!("{degrees} {to:?}")
}

#[test]
fn always_checks_what_a_hand_written_deserialize_would_let_through() {
    let runtime = Runtime::new().unwrap();
    let args = || json!({"degrees": 20, "to": "CELSIUS"});
    let trusted = ToolRegistry::new().with(Convert);
    assert_eq!(outcome(&runtime, &trusted, "convert", args()), {
        let result = crate::output::result::ToolResult::text("20 Celsius");
        format!("{result:?}")
    });
    let checked = ToolRegistry::builder()
        .with(Convert)
        .validation(Validation::Always)
        .build();
    let result = runtime.block_on(checked.call(&ToolContext::new(()), "convert", args()));
    assert!(result.is_error(), "{}", result.model_text());
    assert!(
        result
            .model_text()
            .contains("expected one of `celsius`, `fahrenheit`, got `CELSIUS`"),
        "{}",
        result.model_text()
    );
}
