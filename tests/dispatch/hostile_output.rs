//! Model output that cannot hurt: what the model sent is repeated back
//! bounded and with nothing hidden in it, no argument is silently dropped,
//! and every way a provider says "no arguments" means none. Each test
//! asserts the exact text the model receives.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Value, json};
use tokio::runtime::Runtime;
use tool_core::error::MAX_ECHO_CHARS;
use tool_core::registry::RegistryBuilder;
use tool_core::registry::Validation;
use tool_core::{ToolContext, ToolRegistry, ToolResult, tool};

/// Get the weather for a city.
#[tool(tier = Observe)]
fn get_weather(
    /// The city.
    city: String,
    /// Days ahead, 0 to 3.
    days: Option<u8>,
) -> String {
    format!("{city} in {} days: sunny", days.unwrap_or(0))
}

/// Say that the service is up.
#[tool(tier = Observe)]
fn ping() -> &'static str {
    "pong"
}

fn registry() -> ToolRegistry {
    ToolRegistry::new().with(GetWeather).with(Ping)
}

fn call(name: &str, args: Value) -> ToolResult {
    let runtime = Runtime::new().expect("a Tokio runtime");
    runtime.block_on(registry().call(&ToolContext::new(()), name, args))
}

fn text(name: &str, args: Value) -> String {
    call(name, args).model_text().into_owned()
}

#[test]
fn a_huge_unknown_tool_name_comes_back_cut() {
    let name = "n".repeat(1 << 20);
    assert_eq!(
        text(&name, json!({})),
        format!(
            "unknown tool `{}…`. Available tools: `get_weather`, `ping`.",
            "n".repeat(MAX_ECHO_CHARS - 1)
        )
    );
}

#[test]
fn a_huge_unknown_argument_comes_back_cut() {
    let key = "k".repeat(500_000);
    let expected = format!(
        "invalid arguments for tool `get_weather`: unknown argument `{}…`; expected one of `city`, `days`. Correct the arguments and call the tool again.",
        "k".repeat(MAX_ECHO_CHARS - 1)
    );
    let mut args = serde_json::Map::new();
    args.insert("city".into(), json!("Paris"));
    args.insert(key, json!(1));
    assert_eq!(text("get_weather", Value::Object(args.clone())), expected);
    // Through the deserializer alone, in serde's words.
    let registry = RegistryBuilder::from(registry())
        .validation(Validation::Off)
        .build();
    let runtime = Runtime::new().expect("a Tokio runtime");
    let result =
        runtime.block_on(registry.call(&ToolContext::new(()), "get_weather", Value::Object(args)));
    assert_eq!(
        result.model_text(),
        format!(
            "invalid arguments for tool `get_weather`: unknown argument `{}…`, expected `city` or `days`. Correct the arguments and call the tool again.",
            "k".repeat(MAX_ECHO_CHARS - 1)
        )
    );
}

#[test]
fn hidden_characters_in_names_are_shown() {
    assert_eq!(
        text("get_\u{202e}rehtaew\n", json!({})),
        "unknown tool `get_\\u{202e}rehtaew\\n`. Available tools: `get_weather`, `ping`."
    );
    assert_eq!(
        text("get_weather", json!({"city": "Paris", "\u{1b}[2Jdays": 1})),
        "invalid arguments for tool `get_weather`: unknown argument `\\u{1b}[2Jdays`; expected one of `city`, `days`. Correct the arguments and call the tool again."
    );
}

#[test]
fn a_key_of_backticks_cannot_break_out_of_its_quotes() {
    let key = "`".repeat(200);
    let echoed = format!("{}…", "\\u{60}".repeat(10));
    let registry = RegistryBuilder::from(registry())
        .validation(Validation::Off)
        .build();
    let runtime = Runtime::new().expect("a Tokio runtime");
    let result = runtime.block_on(registry.call(
        &ToolContext::new(()),
        "get_weather",
        json!({"city": "Paris", key.clone(): 1}),
    ));
    assert_eq!(
        result.model_text(),
        format!(
            "invalid arguments for tool `get_weather`: unknown argument `{echoed}`, expected `city` or `days`. Correct the arguments and call the tool again."
        )
    );
    assert_eq!(
        text("get_weather", json!({"city": "Paris", key: 1})),
        format!(
            "invalid arguments for tool `get_weather`: unknown argument `{echoed}`; expected one of `city`, `days`. Correct the arguments and call the tool again."
        )
    );
}

#[test]
fn at_most_eight_problems_are_listed() {
    let args: serde_json::Map<String, Value> =
        (0..20).map(|i| (format!("x{i}"), json!(i))).collect();
    assert_eq!(
        text("ping", Value::Object(args)),
        "invalid arguments for tool `ping`: unknown arguments `x0`, `x1`, `x2`, `x3`, `x4`, `x5`, `x6`, `x7` and 12 more; this tool takes none. Correct the arguments and call the tool again."
    );
}

#[test]
fn a_key_given_twice_is_refused_not_dropped() {
    assert_eq!(
        text("get_weather", json!(r#"{"city": "Paris", "city": "Lyon"}"#)),
        "invalid arguments for tool `get_weather`: argument `city` is given twice; give it once. Correct the arguments and call the tool again."
    );
}

#[test]
fn every_way_of_saying_no_arguments_means_none() {
    for none in [
        json!(null),
        json!(""),
        json!("  "),
        json!("null"),
        json!({}),
    ] {
        assert_eq!(text("ping", none.clone()), "pong", "{none}");
    }
}

/// The documented bound on an error text: every echo is cut to
/// `MAX_ECHO_CHARS`, at most `MAX_LISTED_PROBLEMS` are listed, and the rest
/// is the registry's own words and names.
const MAX_TEXT_CHARS: usize = 2048;

fn huge_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        (any::<char>(), 0..5000usize).prop_map(|(c, n)| c.to_string().repeat(n)),
        Just("\u{202e}\u{2066}\n\r\t\u{0}\u{200b}".repeat(300)),
    ]
}

fn hostile_arguments() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        huge_text().prop_map(Value::String),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        Just(Value::Null),
    ];
    let value = leaf.prop_recursive(3, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..40).prop_map(Value::Array),
            prop::collection::btree_map(huge_text(), inner, 0..12)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    });
    let object = prop::collection::btree_map(
        prop_oneof![
            Just("city".to_owned()),
            Just("days".to_owned()),
            huge_text()
        ],
        value,
        0..30,
    )
    .prop_map(|m| Value::Object(m.into_iter().collect()));
    prop_oneof![
        object.clone(),
        object.prop_map(|o| Value::String(o.to_string())),
        huge_text().prop_map(Value::String),
    ]
}

#[test]
fn no_error_text_exceeds_the_bound() {
    let runtime = Runtime::new().expect("a Tokio runtime");
    let ctx = ToolContext::new(());
    let strict = registry();
    let lax = RegistryBuilder::from(registry())
        .validation(Validation::Off)
        .build();
    let names = prop_oneof![
        Just("get_weather".to_owned()),
        Just("ping".to_owned()),
        huge_text()
    ];
    let mut runner = TestRunner::new(Config {
        cases: 256,
        failure_persistence: None,
        ..Config::default()
    });
    let outcome = runner.run(&(names, hostile_arguments()), |(name, args)| {
        for registry in [&strict, &lax] {
            let result = runtime.block_on(registry.call(&ctx, &name, args.clone()));
            let chars = result.model_text().chars().count();
            if chars > MAX_TEXT_CHARS {
                return Err(TestCaseError::fail(format!(
                    "{chars} characters: {}",
                    result.model_text()
                )));
            }
        }
        Ok(())
    });
    if let Err(error) = outcome {
        panic!("an error text over the bound: {error}");
    }
}

/// Book a meeting.
#[tool(tier = Observe)]
fn book(
    /// Who to invite.
    #[schemars(email)]
    email: String,
    /// Where to read the agenda.
    #[schemars(url)]
    agenda: Option<String>,
    /// When, in RFC 3339.
    #[schemars(extend("format" = "date-time"))]
    at: Option<String>,
    /// The meeting's id.
    #[schemars(extend("format" = "uuid"))]
    id: Option<String>,
    /// The room's address.
    #[schemars(extend("format" = "ipv4"))]
    room: Option<String>,
    /// How many people, at most 20.
    people: Option<u8>,
) -> String {
    let _ = (agenda, at, id, room, people);
    format!("booked with {email}")
}

#[test]
fn declared_formats_are_enforced() {
    let runtime = Runtime::new().expect("a Tokio runtime");
    let registry = ToolRegistry::new().with(Book);
    let ctx = ToolContext::new(());
    let text = |args: Value| {
        runtime
            .block_on(registry.call(&ctx, "book", args))
            .model_text()
            .into_owned()
    };
    assert_eq!(
        text(json!({
            "email": "not-an-email",
            "agenda": "::not a uri",
            "at": "tomorrow",
            "id": "42",
            "room": "300.1.1.1",
            "people": 300
        })),
        "invalid arguments for tool `book`: argument `email` at `/email`: must be a valid email, got `not-an-email`; argument `agenda` at `/agenda`: must be a valid uri, got `::not a uri`; argument `at` at `/at`: must be a valid date-time, got `tomorrow`; argument `id` at `/id`: must be a valid uuid, got `42`; argument `room` at `/room`: must be a valid ipv4, got `300.1.1.1`; argument `people` at `/people`: must be at most 255, got 300. Correct the arguments and call the tool again."
    );
    assert_eq!(
        text(json!({
            "email": "ada@example.com",
            "agenda": "https://example.com/agenda",
            "at": "2026-11-23T10:00:00Z",
            "id": "67e55044-10b1-426f-9247-bb680e5fe0c8",
            "room": "10.0.0.7",
            "people": 12
        })),
        "booked with ada@example.com"
    );
}

#[test]
fn nesting_deeper_than_128_levels_is_refused() {
    let deep = format!("{{\"city\": {}1{}}}", "[".repeat(200), "]".repeat(200));
    assert_eq!(
        text("get_weather", json!(deep)),
        "the arguments for tool `get_weather` are not valid JSON (recursion limit exceeded at line 1 column 136); send them as a JSON object"
    );
}

/// Records the tool names an observer is given.
struct Names(std::sync::Arc<std::sync::Mutex<Vec<String>>>);

impl tool_core::observe::CallObserver for Names {
    fn call_started(&self, event: &tool_core::observe::CallStarted<'_>) {
        self.0
            .lock()
            .expect("not poisoned")
            .push(event.tool.to_owned());
    }

    fn call_finished(&self, event: &tool_core::observe::CallFinished<'_>) {
        self.0
            .lock()
            .expect("not poisoned")
            .push(event.tool.to_owned());
    }
}

#[test]
fn events_carry_an_unknown_name_bounded() {
    let names = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let registry = RegistryBuilder::from(registry())
        .observer(Names(std::sync::Arc::clone(&names)))
        .build();
    let runtime = Runtime::new().expect("a Tokio runtime");
    let name = format!("{}\u{202e}", "n".repeat(1 << 20));
    runtime.block_on(registry.call(&ToolContext::new(()), &name, json!({})));
    let expected = format!("{}…", "n".repeat(MAX_ECHO_CHARS - 1));
    assert_eq!(
        *names.lock().expect("not poisoned"),
        [expected.clone(), expected]
    );
}

#[test]
fn an_mcp_error_for_a_huge_name_is_bounded() {
    let runtime = Runtime::new().expect("a Tokio runtime");
    let request = json!({
        "jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "n".repeat(1 << 20), "arguments": {}}
    });
    let turn = runtime
        .block_on(tool_core::provider::Provider::Mcp.respond(
            &registry(),
            &ToolContext::new(()),
            &request,
        ))
        .expect("a tools/call request");
    assert_eq!(
        turn.reply(),
        [json!({
            "jsonrpc": "2.0", "id": 7,
            "error": {
                "code": -32602,
                "message": format!(
                    "unknown tool `{}…`. Available tools: `get_weather`, `ping`.",
                    "n".repeat(MAX_ECHO_CHARS - 1)
                )
            }
        })]
    );
}
