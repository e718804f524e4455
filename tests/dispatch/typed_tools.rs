//! What a user of `#[tool]` relies on, end to end through a registry: the
//! definitions the model sees, the results and error messages it reads, and
//! the guarantees around them.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tool_core::policy::{ApproveAll, ToolTier};
use tool_core::registry::{Inserted, OnDuplicate, RegistryError, Validation};
use tool_core::{
    BoxFuture, Tool, ToolContext, ToolError, ToolMetadata, ToolRegistry, ToolResult, TypedTool,
    Violation, tool,
};

struct App {
    calls: AtomicUsize,
    home: String,
}

fn app() -> ToolContext<App> {
    ToolContext::new(App {
        calls: AtomicUsize::new(0),
        home: "Lyon".into(),
    })
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Units {
    Celsius,
    Fahrenheit,
}

#[derive(Serialize)]
struct Weather {
    city: String,
    temperature: i32,
}

#[derive(Debug, thiserror::Error)]
enum WeatherError {
    #[error("no weather station in {0}")]
    NoStation(String),
}

/// Get the current weather for a city.
///
/// Returns the temperature and the city:
/// - in Celsius unless asked otherwise.
#[tool(read_only, tier = Observe, timeout = "10s")]
async fn get_weather(
    ctx: &ToolContext<App>,
    /// City name, e.g. "Paris"; the user's home when omitted.
    city: Option<String>,
    /// Temperature units.
    units: Option<Units>,
    /// Days from today, 0 to 3.
    #[schemars(range(max = 3))]
    #[serde(default)]
    days: u8,
) -> Result<Weather, WeatherError> {
    ctx.state().calls.fetch_add(1, Ordering::SeqCst);
    let city = city.unwrap_or_else(|| ctx.state().home.clone());
    if city == "Atlantis" {
        return Err(WeatherError::NoStation(city));
    }
    let celsius = 20 + i32::from(days);
    let temperature = match units {
        Some(Units::Fahrenheit) => celsius * 9 / 5 + 32,
        _ => celsius,
    };
    Ok(Weather { city, temperature })
}

#[tokio::test]
async fn definition_comes_from_doc_comments_and_types() {
    let registry = ToolRegistry::<App>::new().with(GetWeather);
    let definition = registry
        .info("get_weather")
        .map(|tool| tool.definition)
        .expect("registered");
    assert_eq!(
        definition.description,
        "Get the current weather for a city.\n\nReturns the temperature and the city:\n- in Celsius unless asked otherwise."
    );
    let schema = &definition.input_schema;
    assert_eq!(
        schema,
        &json!({
            "type": "object",
            "properties": {
                "city": {
                    "description": "City name, e.g. \"Paris\"; the user's home when omitted.",
                    "type": ["string", "null"]
                },
                "units": {
                    "description": "Temperature units.",
                    "anyOf": [{"$ref": "#/$defs/Units"}, {"type": "null"}]
                },
                "days": {
                    "description": "Days from today, 0 to 3.",
                    "type": "integer",
                    "format": "uint8",
                    "minimum": 0,
                    "maximum": 3,
                    "default": 0
                }
            },
            "additionalProperties": false,
            "$defs": {
                "Units": {"type": "string", "enum": ["celsius", "fahrenheit"]}
            }
        })
    );
    let keys: Vec<&String> = schema["properties"]
        .as_object()
        .expect("object")
        .keys()
        .collect();
    assert_eq!(
        keys,
        ["city", "units", "days"],
        "properties keep the parameters' order"
    );
}

#[tokio::test]
async fn a_valid_call_runs_the_function_with_its_context() {
    let registry = ToolRegistry::<App>::new().with(GetWeather);
    let ctx = app();
    let result = registry
        .call(
            &ctx,
            "get_weather",
            json!({"units": "fahrenheit", "days": 1}),
        )
        .await;
    assert!(!result.is_error());
    assert_eq!(
        result.as_json(),
        Some(&json!({"city": "Lyon", "temperature": 69}))
    );
    assert_eq!(result.model_text(), r#"{"city":"Lyon","temperature":69}"#);
    assert_eq!(ctx.state().calls.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn the_function_stays_callable_as_written() {
    let ctx = app();
    let weather = get_weather(&ctx, Some("Oslo".into()), None, 0).await;
    assert_eq!(weather.expect("weather").temperature, 20);
}

#[tokio::test]
async fn bad_arguments_never_reach_the_function() {
    let validating = ToolRegistry::<App>::new().with(GetWeather);
    let deserializing = ToolRegistry::<App>::builder()
        .with(GetWeather)
        .validation(Validation::Off)
        .build();
    let ctx = app();
    let cases = [
        (
            json!({"units": "kelvin"}),
            "argument `units` at `/units`: expected one of `celsius`, `fahrenheit`, got `kelvin`",
            "argument `units` at `/units`: unknown variant `kelvin`, expected `celsius` or `fahrenheit`",
        ),
        (
            json!({"city": 42}),
            "argument `city` at `/city`: expected a string or null, got an integer `42`",
            "argument `city` at `/city`: invalid type: integer `42`, expected a string",
        ),
        (
            json!({"days": 300}),
            "argument `days` at `/days`: must be at most 3, got 300",
            "argument `days` at `/days`: invalid value: integer `300`, expected u8",
        ),
        (
            json!({"town": "Paris"}),
            "unknown argument `town`; expected one of `city`, `units`, `days`",
            "unknown argument `town`, expected one of `city`, `units`, `days`",
        ),
    ];
    for (args, validated, deserialized) in cases {
        for (registry, expected) in [(&validating, validated), (&deserializing, deserialized)] {
            let result = registry.call(&ctx, "get_weather", args.clone()).await;
            assert!(result.is_error(), "{args}");
            assert_eq!(
                result.model_text(),
                format!(
                    "invalid arguments for tool `get_weather`: {expected}. Correct the arguments and call the tool again."
                )
            );
            assert!(
                matches!(result.tool_error(), Some(ToolError::InvalidArguments { tool, .. }) if tool == "get_weather"),
                "{args}"
            );
        }
    }
    // What serde cannot see and only the schema says.
    let days = deserializing
        .call(&ctx, "get_weather", json!({"days": 5}))
        .await;
    assert!(
        !days.is_error(),
        "with validation off, `maximum: 3` goes unchecked"
    );
    assert_eq!(
        ctx.state().calls.load(Ordering::SeqCst),
        1,
        "only that call ran the function"
    );
}

#[tokio::test]
async fn a_missing_required_argument_names_the_field() {
    /// Greet someone.
    #[tool]
    fn greet(name: String) -> String {
        format!("hello {name}")
    }

    let registry: ToolRegistry = ToolRegistry::new().with(Greet);
    let result = registry
        .call(&ToolContext::new(()), "greet", json!({}))
        .await;
    assert_eq!(
        result.model_text(),
        "invalid arguments for tool `greet`: missing argument `name`. Correct the arguments and call the tool again."
    );
    assert_eq!(
        registry.tool_definitions()[0].input_schema["required"],
        json!(["name"])
    );
}

#[tokio::test]
async fn an_err_becomes_an_error_result_with_its_display_text() {
    let registry = ToolRegistry::<App>::new().with(GetWeather);
    let result = registry
        .call(&app(), "get_weather", json!({"city": "Atlantis"}))
        .await;
    assert!(result.is_error());
    assert_eq!(result.model_text(), "no weather station in Atlantis");
    assert_eq!(
        result.tool_error(),
        Some(&ToolError::Execution {
            tool: "get_weather".into(),
            message: "no weather station in Atlantis".into()
        })
    );
}

#[tokio::test]
async fn an_unknown_tool_is_an_error_result_listing_the_tools() {
    let registry = ToolRegistry::<App>::new().with(GetWeather).with(SearchTool);
    let result = registry.call(&app(), "get_wether", json!({})).await;
    assert!(result.is_error());
    assert_eq!(
        result.model_text(),
        "unknown tool `get_wether`. Did you mean `get_weather`? Available tools: `get_weather`, `search`."
    );
    assert!(matches!(
        result.tool_error(),
        Some(ToolError::UnknownTool { .. })
    ));
}

fn three() -> usize {
    3
}

/// Search the application's documents.
#[tool(context = App, name = "search", idempotent, open_world = false)]
#[derive(Deserialize, Serialize, JsonSchema)]
struct Search {
    /// What to look for.
    query: String,
    /// How many hits at most.
    #[serde(default = "three")]
    limit: usize,
}

impl Search {
    async fn run(self, ctx: &ToolContext<App>) -> Vec<String> {
        (0..self.limit)
            .map(|i| format!("{} #{i} near {}", self.query, ctx.state().home))
            .collect()
    }
}

/// Reverse a word.
#[tool]
#[derive(Deserialize, Serialize, JsonSchema)]
struct ReverseWord {
    /// The word.
    word: String,
}

impl ReverseWord {
    fn run(self) -> Result<String, String> {
        if self.word.is_empty() {
            Err("give me a word".into())
        } else {
            Ok(self.word.chars().rev().collect())
        }
    }
}

#[tokio::test]
async fn the_struct_form_runs_its_run_method() {
    let registry = ToolRegistry::<App>::builder()
        .with(SearchTool)
        .with(ReverseWordTool)
        .approval(ApproveAll)
        .build();
    assert_eq!(
        registry.names().collect::<Vec<_>>(),
        ["search", "reverse_word"]
    );
    let search = registry
        .info("search")
        .map(|tool| tool.definition)
        .expect("registered");
    assert_eq!(search.description, "Search the application's documents.");
    assert_eq!(
        search.input_schema["properties"]["query"]["description"],
        "What to look for."
    );
    assert!(search.input_schema.get("title").is_none());
    assert!(search.input_schema.get("description").is_none());

    let ctx = app();
    let hits = registry
        .call(&ctx, "search", json!({"query": "rust", "limit": 2}))
        .await;
    assert_eq!(
        hits.as_json(),
        Some(&json!(["rust #0 near Lyon", "rust #1 near Lyon"]))
    );
    let defaulted = registry.call(&ctx, "search", json!({"query": "q"})).await;
    assert_eq!(
        defaulted.as_json().and_then(Value::as_array).map(Vec::len),
        Some(3)
    );

    let reversed = registry
        .call(&ctx, "reverse_word", json!({"word": "abc"}))
        .await;
    assert_eq!(reversed.as_text(), Some("cba"));
    let failed = registry
        .call(&ctx, "reverse_word", json!({"word": ""}))
        .await;
    assert!(failed.is_error());
    assert_eq!(failed.model_text(), "give me a word");
}

#[test]
fn metadata_keys_reach_the_runtime_and_the_rest_keeps_its_defaults() {
    let registry = ToolRegistry::<App>::new().with(GetWeather).with(SearchTool);
    assert_eq!(
        registry.info("get_weather").map(|tool| tool.metadata),
        Some(&ToolMetadata {
            tier: ToolTier::Observe,
            read_only: true,
            timeout: Some(Duration::from_secs(10)),
            ..ToolMetadata::DEFAULT
        })
    );

    /// List a directory.
    #[tool(
        title = "List directory",
        tier = Confirm,
        timeout = "250ms",
        destructive = false,
        concurrency_safe,
        long_running,
        scopes = ["files:read", "files:list"]
    )]
    fn list(path: String) -> Vec<String> {
        vec![path]
    }
    /// Say nothing about yourself.
    #[tool]
    fn quiet() {}
    let plain: ToolRegistry = ToolRegistry::new().with(List).with(Quiet);
    let meta = plain.info("list").expect("registered").metadata;
    assert_eq!(meta.title.as_deref(), Some("List directory"));
    assert_eq!(meta.tier, ToolTier::Confirm);
    assert_eq!(meta.timeout, Some(Duration::from_millis(250)));
    assert!(!meta.destructive && meta.concurrency_safe && meta.long_running);
    assert_eq!(
        meta.scopes.iter().map(|s| s.as_ref()).collect::<Vec<_>>(),
        ["files:read", "files:list"]
    );

    assert_eq!(
        plain.info("quiet").map(|tool| tool.metadata),
        Some(&ToolMetadata::DEFAULT)
    );
    assert_eq!(
        ToolMetadata::DEFAULT.tier,
        ToolTier::Observe,
        "runs unasked, as agent-sdk's `TypedTool`"
    );
    assert_eq!(ToolTier::default(), ToolTier::Observe);

    let search = registry.info("search").expect("registered").metadata;
    assert!(search.idempotent && !search.open_world);
}

#[tokio::test]
async fn name_description_and_schema_can_be_written_out() {
    /// Ignored: the description below wins.
    #[tool(
        name = "roll-die",
        description = "Roll a die.",
        schema = json!({
            "type": "object",
            "properties": {"sides": {"type": "integer", "minimum": 2}},
            "required": ["sides"]
        }),
        output_schema = json!({"type": "integer"})
    )]
    fn roll(sides: u32) -> u32 {
        sides
    }

    let registry: ToolRegistry = ToolRegistry::builder()
        .with(Roll)
        .approval(ApproveAll)
        .build();
    let definition = &registry.tool_definitions()[0];
    assert_eq!(definition.name, "roll-die");
    assert_eq!(definition.description, "Roll a die.");
    assert_eq!(definition.input_schema["properties"]["sides"]["minimum"], 2);
    assert_eq!(
        registry
            .info("roll-die")
            .and_then(|tool| tool.output_schema),
        Some(&json!({"type": "integer"}))
    );
    let ctx = ToolContext::new(());
    assert_eq!(
        registry
            .call(&ctx, "roll-die", json!({"sides": 6}))
            .await
            .model_text(),
        "6"
    );
    let bad = registry
        .call(&ctx, "roll-die", json!({"sides": "six"}))
        .await;
    assert!(bad.is_error(), "the typed input still checks the arguments");
}

#[tokio::test]
async fn plain_returns_become_text_or_json() {
    /// Text.
    #[tool]
    fn text() -> String {
        "plain".into()
    }
    /// A list.
    #[tool]
    fn list() -> Vec<u8> {
        vec![1, 2]
    }
    /// Built by hand.
    #[tool]
    async fn by_hand() -> ToolResult {
        ToolResult::error("handmade failure")
    }
    /// Nothing.
    #[tool]
    async fn nothing() {}

    let registry: ToolRegistry = ToolRegistry::builder()
        .with(Text)
        .with(List)
        .with(ByHand)
        .with(Nothing)
        .approval(ApproveAll)
        .build();
    let ctx = ToolContext::new(());
    let text = registry.call(&ctx, "text", json!({})).await;
    assert_eq!(text.as_text(), Some("plain"));
    let list = registry.call(&ctx, "list", json!({})).await;
    assert_eq!(list.as_json(), Some(&json!([1, 2])));
    let by_hand = registry.call(&ctx, "by_hand", json!({})).await;
    assert!(by_hand.is_error());
    assert_eq!(by_hand.model_text(), "handmade failure");
    let nothing = registry.call(&ctx, "nothing", json!({})).await;
    assert_eq!(nothing.as_json(), Some(&Value::Null));
}

#[tokio::test]
async fn serde_attributes_on_parameters_shape_schema_and_arguments_alike() {
    /// Open a file.
    #[tool]
    fn open(
        /// The file's path.
        #[serde(rename = "file")]
        path: String,
        /// Open for writing.
        #[serde(default, rename = "w")]
        write: bool,
    ) -> String {
        format!("{path} {write}")
    }

    let registry: ToolRegistry = ToolRegistry::builder()
        .with(Open)
        .approval(ApproveAll)
        .build();
    let schema = &registry.tool_definitions()[0].input_schema;
    assert_eq!(
        schema["properties"]["file"]["description"],
        "The file's path."
    );
    assert_eq!(schema["properties"]["w"]["default"], false);
    assert_eq!(schema["required"], json!(["file"]));
    let ctx = ToolContext::new(());
    let result = registry
        .call(&ctx, "open", json!({"file": "a.txt", "w": true}))
        .await;
    assert_eq!(result.model_text(), "a.txt true");
    let old_name = registry.call(&ctx, "open", json!({"path": "a.txt"})).await;
    assert!(old_name.is_error());
}

/// A typed tool written by hand that counts how often its schema is built.
struct Counted {
    schemas: Arc<AtomicUsize>,
}

#[derive(Deserialize, Serialize)]
struct Nothing {}

impl TypedTool for Counted {
    type Input = Nothing;
    type Output = ToolResult;
    fn name(&self) -> &str {
        "counted"
    }
    fn description(&self) -> &str {
        "Count schema builds."
    }
    fn input_schema(&self) -> Value {
        self.schemas.fetch_add(1, Ordering::SeqCst);
        json!({"type": "object"})
    }
    async fn execute(&self, _ctx: &ToolContext, _input: Nothing) -> ToolResult {
        ToolResult::text("ran")
    }
}

#[tokio::test]
async fn the_schema_is_built_once_not_per_call() {
    let schemas = Arc::new(AtomicUsize::new(0));
    let registry: ToolRegistry = ToolRegistry::builder()
        .with(Counted {
            schemas: Arc::clone(&schemas),
        })
        .approval(ApproveAll)
        .build();
    let ctx = ToolContext::new(());
    for _ in 0..3 {
        assert_eq!(
            registry.call(&ctx, "counted", json!({})).await.model_text(),
            "ran"
        );
        assert_eq!(registry.tool_definitions().len(), 1);
    }
    assert_eq!(schemas.load(Ordering::SeqCst), 1);
}

/// An untyped tool whose name is only known at run time.
struct Remote {
    name: String,
    schema: Value,
}

impl<C: Send + Sync + 'static> Tool<C> for Remote {
    fn name(&self) -> &str {
        &self.name
    }
    fn description(&self) -> &str {
        "A tool served elsewhere."
    }
    fn input_schema(&self) -> Value {
        self.schema.clone()
    }
    fn call<'a>(&'a self, ctx: &'a ToolContext<C>, args: Value) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move { ToolResult::json(json!({"call": ctx.call_id(), "args": args})) })
    }
}

fn remote(name: &str) -> Remote {
    Remote {
        name: name.into(),
        schema: json!({"type": "object"}),
    }
}

#[tokio::test]
async fn typed_and_untyped_tools_share_a_registry() {
    let registry = ToolRegistry::<App>::builder()
        .with(GetWeather)
        .with(remote("remote_echo"))
        .approval(ApproveAll)
        .build();
    assert_eq!(
        registry.names().collect::<Vec<_>>(),
        ["get_weather", "remote_echo"]
    );
    let result = registry.call(&app(), "remote_echo", json!({"x": 1})).await;
    let id = result.as_json().and_then(|json| json["call"].as_str());
    assert_eq!(id.map(str::len), Some(32), "the tool sees the call's id");
    assert_eq!(
        result.as_json(),
        Some(&json!({"call": id, "args": {"x": 1}})),
    );
    let again = registry.call(&app(), "remote_echo", json!({"x": 1})).await;
    assert_ne!(
        again.as_json().map(|json| &json["call"]),
        result.as_json().map(|json| &json["call"]),
        "another call, another id"
    );
}

#[test]
fn duplicate_names_are_refused_unless_the_caller_chooses() {
    let mut registry = ToolRegistry::<App>::new().with(GetWeather);
    assert_eq!(
        registry.register(GetWeather),
        Err(RegistryError::DuplicateName {
            name: "get_weather".into()
        })
    );
    assert_eq!(
        registry.register(remote("get_weather")),
        Err(RegistryError::DuplicateName {
            name: "get_weather".into()
        })
    );
    assert_eq!(
        registry.insert(Arc::new(remote("get_weather")), OnDuplicate::Keep),
        Ok(Inserted::Kept)
    );
    assert_eq!(
        registry
            .info("get_weather")
            .map(|tool| tool.definition)
            .map(|d| d.description.as_str()),
        Some(
            "Get the current weather for a city.\n\nReturns the temperature and the city:\n- in Celsius unless asked otherwise."
        )
    );
    assert_eq!(
        registry.insert(Arc::new(remote("get_weather")), OnDuplicate::Replace),
        Ok(Inserted::Replaced)
    );
    assert_eq!(
        registry
            .info("get_weather")
            .map(|tool| tool.definition)
            .map(|d| d.description.as_str()),
        Some("A tool served elsewhere.")
    );
    assert_eq!(registry.tools().len(), 1);
}

#[test]
#[should_panic(expected = "a tool named `get_weather` is already registered")]
fn the_builder_panics_on_a_duplicate_name() {
    let _ = ToolRegistry::<App>::new().with(GetWeather).with(GetWeather);
}

#[test]
fn names_providers_reject_are_refused_at_registration() {
    let mut registry = ToolRegistry::<App>::new();
    for (name, reason) in [
        ("", "it is empty"),
        (
            "get weather",
            "it has a character other than an ASCII letter, digit, `_` or `-`",
        ),
        (&"x".repeat(65), "it is longer than 64 characters"),
    ] {
        let error = registry.register(remote(name)).expect_err(name);
        assert_eq!(
            error,
            RegistryError::InvalidName {
                name: name.into(),
                reason
            }
        );
    }
    assert_eq!(
        registry.register(remote("get weather")).map_err(|e| e.to_string()),
        Err("invalid tool name `get weather`: it has a character other than an ASCII letter, digit, `_` or `-`; providers accept 1 to 64 ASCII letters, digits, `_` and `-`".into())
    );
    assert!(registry.tools().len() == 0);
}

#[tokio::test]
async fn a_context_free_tool_fits_any_registry_and_sees_the_call() {
    /// Report the call.
    #[tool]
    async fn whoami(ctx: &ToolContext) -> String {
        // The caller cancels while the call runs.
        tokio::task::yield_now().await;
        format!("{:?} cancelled={}", ctx.call_id(), ctx.is_cancelled())
    }
    /// Add.
    #[tool]
    fn add(a: i32, b: i32) -> i32 {
        a + b
    }

    let with_state = ToolRegistry::<App>::builder()
        .with(Add)
        .approval(ApproveAll)
        .build();
    assert_eq!(
        with_state
            .call(&app(), "add", json!({"a": 1, "b": 2}))
            .await
            .model_text(),
        "3"
    );

    let plain: ToolRegistry = ToolRegistry::builder()
        .with(Add)
        .with(Whoami)
        .approval(ApproveAll)
        .build();
    let ctx = ToolContext::new(());
    let (result, ()) = tokio::join!(plain.call(&ctx, "whoami", json!(null)), async {
        ctx.cancellation().cancel();
    });
    let text = result.model_text();
    let id = text
        .strip_prefix("Some(\"")
        .and_then(|rest| rest.strip_suffix("\") cancelled=true"))
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(
        id.len(),
        32,
        "the call's id, and a token cancelled with the caller's"
    );
}

/// A tool whose input a schema cannot fully check.
struct Count {
    validated: Arc<AtomicUsize>,
}

#[derive(Deserialize)]
struct Range {
    start: u32,
    end: u32,
}

impl TypedTool for Count {
    type Input = Range;
    type Output = ToolResult;

    fn name(&self) -> &str {
        "count"
    }

    fn description(&self) -> &str {
        "Count from start to end."
    }

    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {"start": {"type": "integer"}, "end": {"type": "integer"}}})
    }

    fn metadata(&self) -> ToolMetadata {
        // Confirm, and no approval hook below: a call that gets past the
        // tool's checks is denied, so a refusal shows they ran first.
        ToolMetadata {
            tier: ToolTier::Confirm,
            ..ToolMetadata::DEFAULT
        }
    }

    fn validate(&self, _ctx: &ToolContext, input: &Range) -> Result<(), Vec<Violation>> {
        self.validated.fetch_add(1, Ordering::Relaxed);
        if input.end < input.start {
            return Err(vec![
                Violation::for_argument("end", "must not be before `start`"),
                Violation::new("", "the range is empty"),
            ]);
        }
        Ok(())
    }

    async fn execute(&self, _ctx: &ToolContext, input: Range) -> ToolResult {
        ToolResult::text((input.end - input.start).to_string())
    }
}

#[tokio::test]
async fn a_tools_own_checks_run_after_deserialization_and_before_the_policy() {
    let validated = Arc::new(AtomicUsize::new(0));
    let registry: ToolRegistry = ToolRegistry::new().with(Count {
        validated: Arc::clone(&validated),
    });
    let ctx = ToolContext::new(());
    let text = |args: Value| {
        let registry = &registry;
        let ctx = &ctx;
        async move {
            registry
                .call(ctx, "count", args)
                .await
                .model_text()
                .into_owned()
        }
    };
    assert_eq!(
        text(json!({"start": 5, "end": 2})).await,
        "invalid arguments for tool `count`: argument `end` at `/end`: must not be before `start`; the range is empty. Correct the arguments and call the tool again."
    );
    // Arguments that do not deserialize never reach the checks.
    assert_eq!(
        text(json!({"start": "five", "end": 2})).await,
        "invalid arguments for tool `count`: argument `start` at `/start`: expected an integer, got a string `five`. Correct the arguments and call the tool again."
    );
    assert_eq!(validated.load(Ordering::Relaxed), 1);
    // Accepted input goes on to the policy: a `Confirm` tool with no hook.
    let denied = text(json!({"start": 2, "end": 5})).await;
    assert!(
        denied.starts_with("the call to tool `count` was denied"),
        "{denied}"
    );
    assert_eq!(validated.load(Ordering::Relaxed), 2);
}

/// A hand-written tool whose `execute` returns a `Result` and uses `?`.
struct ParseSum;

#[derive(Deserialize)]
struct Numbers {
    numbers: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
enum SumError {
    #[error("`{0}` is not a whole number; send digits only")]
    NotANumber(String),
    #[error("the sum is too large")]
    Overflow,
}

fn parse(number: &str) -> Result<i64, SumError> {
    number
        .parse()
        .map_err(|_| SumError::NotANumber(number.to_owned()))
}

impl TypedTool for ParseSum {
    type Input = Numbers;
    type Output = Result<Vec<i64>, SumError>;

    fn name(&self) -> &str {
        "parse_sum"
    }

    fn description(&self) -> &str {
        "Add numbers written as text; returns the running totals."
    }

    fn input_schema(&self) -> Value {
        json!({"type": "object", "properties": {"numbers": {"type": "array", "items": {"type": "string"}}}})
    }

    fn metadata(&self) -> ToolMetadata {
        ToolMetadata {
            tier: ToolTier::Observe,
            ..ToolMetadata::DEFAULT
        }
    }

    async fn execute(&self, _ctx: &ToolContext, input: Numbers) -> Self::Output {
        let mut total: i64 = 0;
        let mut totals = Vec::new();
        for number in &input.numbers {
            total = total
                .checked_add(parse(number)?)
                .ok_or(SumError::Overflow)?;
            totals.push(total);
        }
        Ok(totals)
    }
}

#[tokio::test]
async fn a_hand_written_execute_returns_a_result_and_uses_the_question_mark() {
    let registry: ToolRegistry = ToolRegistry::new().with(ParseSum);
    let ctx = ToolContext::new(());
    let sums = registry
        .call(&ctx, "parse_sum", json!({"numbers": ["1", "2", "39"]}))
        .await;
    assert!(!sums.is_error());
    assert_eq!(sums.as_json(), Some(&json!([1, 3, 42])));

    let bad = registry
        .call(&ctx, "parse_sum", json!({"numbers": ["1", "two"]}))
        .await;
    assert!(bad.is_error());
    assert_eq!(
        bad.model_text(),
        "`two` is not a whole number; send digits only"
    );
    assert_eq!(
        bad.tool_error(),
        Some(&ToolError::Execution {
            tool: "parse_sum".into(),
            message: "`two` is not a whole number; send digits only".into(),
        })
    );

    let large = registry
        .call(
            &ctx,
            "parse_sum",
            json!({"numbers": [i64::MAX.to_string(), "1"]}),
        )
        .await;
    assert_eq!(large.model_text(), "the sum is too large");
}
