//! Property tests of `ToolRegistry::call` against hostile input: arbitrary
//! bytes, arbitrary JSON and arbitrary tool names sent to the quickstart
//! example's registry.
//!
//! Each property checks, for every call: no panic; a final result (success
//! or error, never pending); an error always says something to the model;
//! and, against an oracle written from the tools' definitions, a success
//! exactly when the arguments are valid.
//!
//! The tools are the quickstart example's own, included with `#[path]`, so
//! what is tested is what a newcomer runs.

use std::cell::RefCell;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Map, Number, Value, json};
use tokio::runtime::Runtime;
use tool_core::{ToolContext, ToolError, ToolRegistry, ToolResult};

/// The quickstart example itself: its tools, its approval hook, its
/// registry; its `main` goes unused here.
#[path = "../../examples/quickstart.rs"]
#[allow(dead_code)]
mod quickstart;

use quickstart::{App, context, registry};

/// The home city of the quickstart's context.
const HOME_CITY: &str = "Lyon";
const TOOLS: [&str; 3] = ["get_weather", "web_search", "convert_currency"];
const ARGUMENT_NAMES: [&str; 7] = [
    "city",
    "units",
    "query",
    "max_results",
    "amount",
    "from",
    "to",
];

fn config() -> Config {
    Config {
        cases: 256,
        // Only this file and tests/stress.rs may be written: no
        // `proptest-regressions` directory; a failure prints its minimal
        // input instead.
        failure_persistence: None,
        ..Config::default()
    }
}

/// Runs `property` on `strategy` for the configured number of cases on one
/// runtime, failing with the minimal input and what went wrong.
fn check<S: Strategy>(
    name: &str,
    strategy: S,
    property: impl Fn(&Runtime, S::Value) -> Result<(), String>,
) where
    S::Value: std::fmt::Debug,
{
    let runtime = Runtime::new().expect("a Tokio runtime");
    let mut runner = TestRunner::new(config());
    let outcome = runner.run(&strategy, |input| {
        property(&runtime, input).map_err(TestCaseError::fail)
    });
    if let Err(error) = outcome {
        panic!("property `{name}` does not hold: {error}");
    }
}

/// The problems with one result, whatever the arguments: it must be final,
/// and an error must tell the model something.
fn shape_problems(tool: &str, args: &Value, result: &ToolResult, problems: &mut Vec<String>) {
    if result.is_pending() || result.pending_call_id().is_some() {
        problems.push(format!("{tool}({args}) is pending: {result:?}"));
    }
    if result.is_error() && result.model_text().trim().is_empty() {
        problems.push(format!(
            "{tool}({args}) is an error with no text: {result:?}"
        ));
    }
    if !result.is_error() && result.tool_error().is_some() {
        problems.push(format!(
            "{tool}({args}) is a success with an error kind: {result:?}"
        ));
    }
}

// ---- The oracle --------------------------------------------------------------

/// The arguments as the registry documents reading them: an object, a string
/// holding one, `null`, a blank string or the string `null` for none;
/// anything else is refused. (The strategies below write no key twice.)
fn read_arguments(args: &Value) -> Option<Map<String, Value>> {
    match args {
        Value::Object(object) => Some(object.clone()),
        Value::Null => Some(Map::new()),
        Value::String(text) if text.trim().is_empty() => Some(Map::new()),
        Value::String(text) => match serde_json::from_str(text) {
            Ok(Value::Object(object)) => Some(object),
            Ok(Value::Null) => Some(Map::new()),
            _ => None,
        },
        _ => None,
    }
}

/// What a successful call must return, or `None` when the call must fail.
fn expected_success(tool: &str, args: &Value) -> Option<Value> {
    let args = read_arguments(args)?;
    match tool {
        "get_weather" => {
            if args.keys().any(|key| key != "city" && key != "units") {
                return None;
            }
            let city = match args.get("city") {
                None | Some(Value::Null) => HOME_CITY.to_owned(),
                Some(Value::String(city)) => city.clone(),
                Some(_) => return None,
            };
            let temperature = match args.get("units") {
                None | Some(Value::Null) => 21.5,
                Some(units) if units == "celsius" => 21.5,
                Some(units) if units == "fahrenheit" => 70.7,
                Some(_) => return None,
            };
            (!city.trim().is_empty()).then(|| {
                json!({
                    "city": city,
                    "temperature": temperature,
                    "summary": "sunny with a light breeze",
                })
            })
        }
        // A struct tool: its fields are all the arguments it takes, as a
        // function's parameters are.
        "web_search" => {
            if args
                .keys()
                .any(|key| key != "query" && key != "max_results")
            {
                return None;
            }
            let query = args.get("query")?.as_str()?;
            let max_results = match args.get("max_results") {
                // `null` for an optional argument reads as left out.
                None | Some(Value::Null) => 5,
                Some(value) => value.as_u64().filter(|n| (1..=20).contains(n))?,
            };
            let results: Vec<String> = (1..=max_results.min(3))
                .map(|rank| format!("result {rank} for {query:?}"))
                .collect();
            Some(json!(results))
        }
        "convert_currency" => {
            if args.len() != 3 {
                return None;
            }
            let amount = args.get("amount")?.as_f64()?;
            let approved = amount > 0.0 && amount <= 1000.0;
            let rate = args.get("from")? == "EUR" && args.get("to")? == "USD";
            (approved && rate)
                .then(|| Value::String(format!("{amount} EUR = {:.2} USD", amount * 1.08)))
        }
        _ => None,
    }
}

/// The result as JSON: what the model reads, parsed when it is JSON.
fn result_value(result: &ToolResult) -> Value {
    match (result.as_json(), result.as_text()) {
        (Some(value), _) => value.clone(),
        (None, Some(text)) => Value::String(text.to_owned()),
        (None, None) => Value::Null,
    }
}

/// Calls every tool with `args` and lists every broken promise.
async fn call_every_tool(
    registry: &ToolRegistry<App>,
    ctx: &ToolContext<App>,
    args: &Value,
    problems: &mut Vec<String>,
) -> [usize; 3] {
    let mut successes = [0; 3];
    for (at, tool) in TOOLS.into_iter().enumerate() {
        let result = registry.call(ctx, tool, args.clone()).await;
        shape_problems(tool, args, &result, problems);
        match (expected_success(tool, args), result.is_error()) {
            (Some(expected), false) => {
                successes[at] += 1;
                if result_value(&result) != expected {
                    problems.push(format!(
                        "{tool}({args}) returned {}, expected {expected}",
                        result.model_text()
                    ));
                }
            }
            (None, true) => {}
            (Some(_), true) => problems.push(format!(
                "{tool}({args}) failed on valid arguments: {}",
                result.model_text()
            )),
            (None, false) => problems.push(format!(
                "{tool}({args}) succeeded on invalid arguments: {}",
                result.model_text()
            )),
        }
    }
    successes
}

// ---- Strategies ----------------------------------------------------------------

/// A JSON number: small and huge integers, and floats of every magnitude.
fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        (-30i64..30).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        Just(Value::from(u64::MAX)),
        Just(Value::from(i64::MIN)),
        (-2000.0f64..2000.0).prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number)),
        prop::sample::select(vec![0.0, -0.0, 1e-300, 5.0, 20.0, 1000.0, 1000.0001, 1e300])
            .prop_map(Value::from),
    ]
}

/// A string: any Unicode, blanks, and words the tools give meaning to.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[ \t\n\u{a0}\u{3000}]{0,3}",
        prop::sample::select(vec![
            "celsius",
            "fahrenheit",
            "Celsius",
            "kelvin",
            "EUR",
            "USD",
            "GBP",
            "eur",
            "EUR\n",
            "Paris",
            "Zürich",
            "東京",
            "🦀",
            "",
            "{}",
            "null",
        ])
        .prop_map(str::to_owned),
    ]
}

/// A key: mostly the tools' real argument names, sometimes anything.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(ARGUMENT_NAMES.to_vec()).prop_map(str::to_owned),
        1 => any::<String>(),
        1 => "[a-z_]{0,12}",
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(),
        text().prop_map(Value::String),
    ]
}

/// Any JSON value at most four levels deep (three levels of arrays and
/// objects around a scalar).
fn json_value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// A value for a real argument: mostly plausible ones, valid or not, and
/// now and then anything.
fn argument_value(name: &'static str) -> impl Strategy<Value = Value> {
    let (valid, invalid): (Vec<Value>, Vec<Value>) = match name {
        "city" => (
            vec![json!("Paris"), json!("東京"), json!(null)],
            vec![json!(""), json!(" \u{3000}"), json!(7)],
        ),
        "units" => (
            vec![json!("celsius"), json!("fahrenheit"), json!(null)],
            vec![json!("kelvin"), json!("Celsius"), json!(true)],
        ),
        "query" => (
            vec![json!("rust"), json!(""), json!("🦀 \"quoted\"")],
            vec![json!(null), json!(["rust"])],
        ),
        "max_results" => (
            vec![json!(1), json!(3), json!(20), json!(null)],
            vec![json!(0), json!(21), json!(5.0), json!(-1)],
        ),
        "amount" => (
            vec![json!(10), json!(0.5), json!(1000), json!(1e-300)],
            vec![json!(1000.5), json!(0), json!(-3), json!("10")],
        ),
        "from" => (vec![json!("EUR")], vec![json!("USD"), json!("eur")]),
        _ => (vec![json!("USD")], vec![json!("EUR"), json!("USDX")]),
    };
    prop_oneof![
        4 => prop::sample::select(valid),
        1 => prop::sample::select(invalid),
        1 => text().prop_map(Value::String),
        1 => json_value(),
    ]
}

/// An object of one tool's real arguments, some left out, sometimes with an
/// extra key; as an object, or as a JSON string holding it (OpenAI's form).
fn real_arguments() -> impl Strategy<Value = Value> {
    let names: Vec<&'static [&'static str]> = vec![
        &["city", "units"],
        &["query", "max_results"],
        // Twice: all three must be valid together for a success.
        &["amount", "from", "to"],
        &["amount", "from", "to"],
    ];
    prop::sample::select(names)
        .prop_flat_map(|names| {
            let fields: Vec<_> = names
                .iter()
                .map(|&name| {
                    prop::option::weighted(0.9, argument_value(name))
                        .prop_map(move |value| value.map(|value| (name.to_owned(), value)))
                })
                .collect();
            let extra = prop::option::weighted(0.1, (key(), json_value()));
            (fields, extra, any::<bool>())
        })
        .prop_map(|(fields, extra, as_string)| {
            let mut object: Map<String, Value> = fields.into_iter().flatten().collect();
            if let Some((key, value)) = extra {
                object.insert(key, value);
            }
            let object = Value::Object(object);
            if as_string {
                Value::String(object.to_string())
            } else {
                object
            }
        })
}

// ---- Properties ----------------------------------------------------------------

#[test]
fn arbitrary_bytes_as_arguments_give_a_final_result() {
    let registry = registry();
    let ctx = context();
    check(
        "arbitrary bytes",
        prop::collection::vec(any::<u8>(), 0..2048),
        |runtime, bytes| {
            let args = Value::String(String::from_utf8_lossy(&bytes).into_owned());
            every_tool_gives_a_final_result(runtime, &registry, &ctx, &args)
        },
    );
}

/// `args` to every tool; what went wrong, if anything.
fn every_tool_gives_a_final_result(
    runtime: &Runtime,
    registry: &ToolRegistry<App>,
    ctx: &ToolContext<App>,
    args: &Value,
) -> Result<(), String> {
    let mut problems = Vec::new();
    runtime.block_on(call_every_tool(registry, ctx, args, &mut problems));
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

#[test]
fn arbitrary_json_as_arguments_gives_a_final_result() {
    let registry = registry();
    let ctx = context();
    check("arbitrary JSON", json_value(), |runtime, args| {
        every_tool_gives_a_final_result(runtime, &registry, &ctx, &args)
    });
}

#[test]
fn real_argument_names_with_arbitrary_values_succeed_only_when_valid() {
    let registry = registry();
    let ctx = context();
    let successes = RefCell::new([0usize; 3]);
    check("real argument names", real_arguments(), |runtime, args| {
        let mut problems = Vec::new();
        let these = runtime.block_on(call_every_tool(&registry, &ctx, &args, &mut problems));
        let mut successes = successes.borrow_mut();
        for (total, this) in successes.iter_mut().zip(these) {
            *total += this;
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("\n"))
        }
    });
    // The strategy reaches the valid arguments of every tool, not only the
    // error paths (about 24, 26 and 18 successes are expected in 256 cases).
    let successes = successes.into_inner();
    assert!(
        successes.iter().all(|&n| n >= 1),
        "successful calls of {TOOLS:?}: {successes:?} in {} cases",
        config().cases
    );
}

/// A name: anything, names like the real ones, and the real ones.
fn tool_name() -> impl Strategy<Value = String> {
    let near_miss = (
        prop::sample::select(TOOLS.to_vec()),
        any::<prop::sample::Index>(),
        text(),
    )
        .prop_map(|(name, at, insert)| {
            let mut name: Vec<char> = name.chars().collect();
            let at = at.index(name.len());
            name.remove(at);
            let mut name: String = name.into_iter().collect();
            name.insert_str(
                at.min(name.len()),
                &insert.chars().take(2).collect::<String>(),
            );
            name
        });
    prop_oneof![
        any::<String>(),
        "[a-z_-]{0,20}",
        near_miss,
        prop::sample::select(TOOLS.to_vec()).prop_map(str::to_owned),
        prop::sample::select(TOOLS.to_vec()).prop_map(str::to_uppercase),
    ]
}

#[test]
fn arbitrary_tool_names_are_unknown_unless_registered() {
    let registry = registry();
    let ctx = context();
    let registered: Vec<String> = registry.names().map(str::to_owned).collect();
    assert_eq!(registered, TOOLS);
    check("arbitrary tool names", tool_name(), |runtime, name| {
        let args = json!({});
        let result = runtime.block_on(registry.call(&ctx, &name, args.clone()));
        let mut problems = Vec::new();
        shape_problems(&name, &args, &result, &mut problems);
        let unknown = match result.tool_error() {
            Some(ToolError::UnknownTool {
                name: reported,
                suggestion,
                available,
            }) => {
                if reported != &name {
                    problems.push(format!("unknown tool {name:?} reported as {reported:?}"));
                }
                if available != &registered {
                    problems.push(format!("unknown tool {name:?}: available {available:?}"));
                }
                if let Some(suggestion) = suggestion
                    && registry.info(suggestion).is_none()
                {
                    problems.push(format!("{name:?}: suggested unknown tool {suggestion:?}"));
                }
                true
            }
            _ => false,
        };
        if registry.info(&name).is_some() == unknown {
            problems.push(format!(
                "{name:?} (registered: {}) gave {result:?}",
                registry.info(&name).is_some()
            ));
        }
        if unknown && !result.is_error() {
            problems.push(format!("unknown tool {name:?} is not an error: {result:?}"));
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("\n"))
        }
    });
}
