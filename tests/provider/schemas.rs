//! The schema side of the providers, proved on a corpus of tools
//! (`corpus/mod.rs`) whose argument types hold every red flag of
//! docs/providers.md 6.7:
//!
//! - each provider's definitions equal the golden files under
//!   `tests/golden/definitions/` (`UPDATE_GOLDEN=1` rewrites them), and so
//!   does the list of tools that fell back from strict mode;
//! - every provider's definitions pass the checker of `schema_checker/`,
//!   which holds each dialect to the rules of docs/providers.md;
//! - every schema of a JSON Schema dialect is valid against the 2020-12
//!   meta-schema;
//! - arguments the tools accept still fit each dialect's schema, so no
//!   rewrite shuts out a valid call.

use crate::corpus;
use crate::schema_checker::{
    AnthropicBudget, check_definitions, is_json_schema, name_of, nodes, required_names, schema_of,
    strict_of, tool_list,
};

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tool_core::provider::Provider;
use tool_core::{ToolContext, ToolRegistry, ToolResult, TypedTool, tool};

// ---------------------------------------------------------------------------
// Golden files

/// Where the golden definitions live.
fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/definitions")
}

/// Whether this run writes the golden files instead of comparing.
fn updating() -> bool {
    std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1")
}

/// Compares `actual` with the golden file `name` (or writes it when
/// updating); what differs, if anything.
fn golden(name: &str, actual: &str) -> Option<String> {
    let path = golden_dir().join(name);
    if updating() {
        std::fs::create_dir_all(golden_dir()).expect("create the golden directory");
        std::fs::write(&path, actual).expect("write a golden file");
        return None;
    }
    let Ok(expected) = std::fs::read_to_string(&path) else {
        return Some(format!(
            "{}: missing (run with UPDATE_GOLDEN=1 to write it)",
            path.display()
        ));
    };
    if expected == actual {
        return None;
    }
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(e, a)| e != a)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    Some(format!(
        "{}: differs from line {}:\n  golden: {:?}\n  actual: {:?}",
        path.display(),
        line + 1,
        expected.lines().nth(line).unwrap_or("<end of file>"),
        actual.lines().nth(line).unwrap_or("<end of file>"),
    ))
}

#[test]
fn definitions_match_the_golden_files() {
    let registry = corpus::registry();
    let mut differences = Vec::new();
    let mut not_strict = String::new();
    for provider in Provider::ALL {
        let definitions = provider
            .definitions(&registry)
            .unwrap_or_else(|error| panic!("{provider}: {error}"));
        let pretty = serde_json::to_string_pretty(definitions.as_json()).expect("serialize");
        differences.extend(golden(
            &format!("{}.json", provider.name()),
            &(pretty + "\n"),
        ));
        for fallback in definitions.not_strict() {
            for blocker in &fallback.blockers {
                writeln!(not_strict, "{provider} | {} | {blocker}", fallback.tool)
                    .expect("write to a string");
            }
        }
    }
    differences.extend(golden("not_strict.txt", &not_strict));
    assert!(
        differences.is_empty(),
        "the definitions changed; review them and run with UPDATE_GOLDEN=1 if the change is meant:\n{}",
        differences.join("\n")
    );
}

#[test]
fn the_corpus_has_every_tool_in_every_provider() {
    let registry = corpus::registry();
    assert_eq!(registry.tool_definitions().len(), corpus::TOOLS);
    for provider in Provider::ALL {
        let definitions = provider.definitions(&registry).expect("definitions");
        let names: Vec<&str> = tool_list(provider, definitions.as_json())
            .into_iter()
            .filter_map(|tool| name_of(provider, tool))
            .collect();
        let registered: Vec<&str> = registry
            .tool_definitions()
            .iter()
            .map(|d| &*d.name)
            .collect();
        assert_eq!(
            names, registered,
            "{provider}: the tools, in registration order"
        );
    }
}

#[test]
fn every_definition_follows_its_dialect() {
    let registry = corpus::registry();
    let mut problems = Vec::new();
    for provider in Provider::ALL {
        let definitions = provider.definitions(&registry).expect("definitions");
        problems.extend(check_definitions(
            provider,
            definitions.as_json(),
            definitions.not_strict(),
        ));
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn strict_mode_holds_for_most_of_the_corpus() {
    // The checker only holds strict tools to the strict rules: were every
    // tool to fall back, it would check nothing. The fallbacks are the
    // types strict mode cannot say (a map, a tuple, any JSON value, a
    // recursive type for Anthropic), which most of `corpus/shapes.rs` is
    // made of, and Anthropic's request budget; `not_strict.txt` names them.
    let registry = corpus::registry();
    for provider in [
        Provider::OpenAiChat { strict: true },
        Provider::OpenAiResponses { strict: true },
        Provider::Anthropic { strict: true },
        Provider::Vllm { strict: true },
    ] {
        let definitions = provider.definitions(&registry).expect("definitions");
        let strict = tool_list(provider, definitions.as_json())
            .into_iter()
            .filter(|tool| strict_of(provider, tool) == Some(true))
            .count();
        assert!(
            strict >= corpus::TOOLS / 2,
            "{provider}: only {strict} of {} tools strict: {:?}",
            corpus::TOOLS,
            definitions.not_strict()
        );
    }
}

// ---------------------------------------------------------------------------
// JSON Schema 2020-12

#[test]
fn every_json_schema_dialect_is_valid_json_schema_2020_12() {
    let registry = corpus::registry();
    let mut invalid = Vec::new();
    for provider in Provider::ALL.into_iter().filter(|p| is_json_schema(*p)) {
        let definitions = provider.definitions(&registry).expect("definitions");
        for tool in tool_list(provider, definitions.as_json()) {
            let name = name_of(provider, tool).unwrap_or_default();
            let schema = schema_of(provider, tool).expect("a schema");
            if let Err(error) = jsonschema::draft202012::meta::validate(schema) {
                invalid.push(format!(
                    "{provider} `{name}`: {error} at `{}`",
                    error.instance_path()
                ));
            }
            if let Some(output) = tool.get("outputSchema")
                && let Err(error) = jsonschema::draft202012::meta::validate(output)
            {
                invalid.push(format!("{provider} `{name}` output: {error}"));
            }
        }
    }
    assert!(invalid.is_empty(), "{}", invalid.join("\n"));
    // The meta-schema check is not vacuous.
    assert!(jsonschema::draft202012::meta::validate(&json!({"type": "strnig"})).is_err());
    assert!(jsonschema::draft202012::meta::validate(&json!({"required": "a"})).is_err());
}

// ---------------------------------------------------------------------------
// No rewrite shuts out a valid call

/// The corpus's input schemas by tool name.
fn own_schema<'r>(registry: &'r ToolRegistry, name: &str) -> &'r Value {
    &registry
        .tool_definitions()
        .iter()
        .find(|d| &*d.name == name)
        .unwrap_or_else(|| panic!("no tool `{name}`"))
        .input_schema
}

/// The schema `provider` sends for the tool `name`.
fn provider_schema(tools: &Value, provider: Provider, name: &str) -> Value {
    tool_list(provider, tools)
        .into_iter()
        .find(|tool| name_of(provider, tool) == Some(name))
        .and_then(|tool| schema_of(provider, tool))
        .cloned()
        .unwrap_or_else(|| panic!("{provider}: no tool `{name}`"))
}

/// The problems of validating `arguments` against `schema`.
fn validation_errors(schema: &Value, arguments: &Value) -> Vec<String> {
    let validator = jsonschema::draft202012::new(schema).expect("a schema that compiles");
    validator
        .iter_errors(arguments)
        .map(|e| format!("{e} at `{}`", e.instance_path()))
        .collect()
}

#[tokio::test]
async fn the_example_arguments_are_accepted_by_the_tools() {
    let registry = corpus::registry();
    let ctx = ToolContext::new(());
    let examples = corpus::full_arguments()
        .into_iter()
        .chain(corpus::minimal_arguments());
    let mut tried = BTreeSet::new();
    for (name, arguments) in examples {
        let result = registry.call(&ctx, name, arguments.clone()).await;
        assert!(
            !result.is_error(),
            "`{name}` {arguments}: {}",
            result.model_text()
        );
        tried.insert(name);
    }
    assert_eq!(tried.len(), corpus::TOOLS, "an example for every tool");
}

#[test]
fn arguments_the_tools_accept_fit_every_dialect() {
    let registry = corpus::registry();
    let mut problems = Vec::new();
    for provider in Provider::ALL.into_iter().filter(|p| is_json_schema(*p)) {
        let definitions = provider.definitions(&registry).expect("definitions");
        let tools = definitions.as_json();
        // OpenAI's strict form requires every property: only the full
        // arguments fit a tool sent strict there.
        let strict_openai = |name: &str| {
            matches!(
                provider,
                Provider::OpenAiChat { strict: true }
                    | Provider::OpenAiResponses { strict: true }
                    | Provider::Vllm { strict: true }
            ) && !definitions.not_strict().iter().any(|n| n.tool == name)
        };
        let full = corpus::full_arguments().into_iter();
        let minimal = corpus::minimal_arguments()
            .into_iter()
            .filter(|(name, _)| !strict_openai(name));
        for (name, arguments) in full.chain(minimal) {
            assert!(validation_errors(own_schema(&registry, name), &arguments).is_empty());
            let schema = provider_schema(tools, provider, name);
            for error in validation_errors(&schema, &arguments) {
                problems.push(format!("{provider} `{name}` {arguments}: {error}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---------------------------------------------------------------------------
// Shapes that once went wrong, each kept by one test

/// How to deliver a notice: flattened into [`Notice`].
#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Channel {
    /// By e-mail.
    Email {
        /// The address.
        address: String,
    },
    /// By text message.
    Sms {
        /// The phone number.
        number: String,
    },
}

/// A notice: its own property beside those of a flattened enum, which
/// schemars writes as `properties` and a `oneOf` in the same object.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Notice {
    /// The text.
    text: String,
    /// How to deliver it.
    #[serde(flatten)]
    channel: Channel,
}

/// Post a notice.
#[tool(tier = Observe)]
fn post_notice(
    /// The notice.
    notice: Notice,
) -> String {
    serde_json::to_string(&notice).unwrap_or_default()
}

/// Arguments `post_notice` accepts.
fn a_notice() -> Value {
    json!({"notice": {"text": "Lunch is ready", "email": {"address": "ada@example.com"}}})
}

#[tokio::test]
async fn a_flattened_enum_is_accepted_by_the_tool() {
    let registry: ToolRegistry = ToolRegistry::new().with(PostNotice);
    let result = registry
        .call(&ToolContext::new(()), "post_notice", a_notice())
        .await;
    assert!(!result.is_error(), "{}", result.model_text());
    assert!(validation_errors(own_schema(&registry, "post_notice"), &a_notice()).is_empty());
    // OpenAI's strict mode sees that it cannot close such an object, and
    // falls back.
    for provider in [
        Provider::OpenAiChat { strict: true },
        Provider::OpenAiResponses { strict: true },
    ] {
        let definitions = provider.definitions(&registry).expect("definitions");
        assert_eq!(definitions.not_strict().len(), 1, "{provider}");
    }
}

#[test]
fn anthropic_strict_keeps_a_flattened_enum_satisfiable() {
    // Closing both `notice` ({"properties": {"text"}, "anyOf": [..]}) and
    // each of its choices would refuse `email` outside and `text` inside:
    // no argument could pass. Strict tool use must fall back, as OpenAI's
    // strict mode does.
    let registry: ToolRegistry = ToolRegistry::new().with(PostNotice);
    let provider = Provider::Anthropic { strict: true };
    let definitions = provider.definitions(&registry).expect("definitions");
    let schema = provider_schema(definitions.as_json(), provider, "post_notice");
    let errors = validation_errors(&schema, &a_notice());
    let strict = definitions.not_strict().is_empty();
    assert!(
        !strict || errors.is_empty(),
        "sent strict, yet the arguments the tool takes do not fit: {errors:?}\n{}",
        serde_json::to_string_pretty(&schema).expect("serialize")
    );
}

#[test]
fn gemini_openapi_keeps_the_properties_beside_a_flattened_enum() {
    // With `anyOf` alone in its node, each choice must carry `notice`'s own
    // `text` (required) beside its `email` or `sms`, or the model never
    // hears of it.
    let registry: ToolRegistry = ToolRegistry::new().with(PostNotice);
    let provider = Provider::Gemini { openapi: true };
    let definitions = provider.definitions(&registry).expect("definitions");
    let schema = provider_schema(definitions.as_json(), provider, "post_notice");
    let notice = &schema["properties"]["notice"];
    let branches = notice["anyOf"].as_array().expect("a choice");
    for branch in branches {
        assert!(
            branch["properties"].get("text").is_some()
                && required_names(branch.as_object().expect("object")).contains(&"text"),
            "a branch without the required `text`: {branch}"
        );
    }
}

/// Arguments of one documented data enum, which schemars writes as a
/// `oneOf`.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Pick {
    /// How to deliver.
    channel: Channel,
}

/// A tool of any name whose input is [`Pick`]: many tools of one shape.
struct Picker(String);

impl TypedTool for Picker {
    type Input = Value;
    type Output = ToolResult;

    fn name(&self) -> &str {
        &self.0
    }

    fn description(&self) -> &str {
        "Pick a channel."
    }

    fn input_schema(&self) -> Value {
        tool_core::schema::input_schema_for::<Pick>()
    }

    async fn execute(&self, _ctx: &ToolContext, _input: Value) -> ToolResult {
        ToolResult::text("picked")
    }
}

#[test]
fn anthropic_strict_counts_a_one_of_as_a_union() {
    // `channel` is `{"description", "oneOf": [..]}` in the schema and
    // `{"description", "anyOf": [..]}` when sent: a union either way, so no
    // more than 16 such tools may be strict in one request.
    let registry = (0..17).fold(ToolRegistry::new(), |registry, i| {
        registry.with(Picker(format!("pick_{i}")))
    });
    let definitions = Provider::Anthropic { strict: true }
        .definitions(&registry)
        .expect("definitions");
    let spent = AnthropicBudget::of(definitions.as_json());
    assert!(
        spent.within_limits(),
        "{spent:?} for limits {:?}",
        AnthropicBudget::LIMITS
    );
    // The corpus: `draw_shape`'s `shape` and `perform_action`'s `action` are
    // such `oneOf`s, and count among the request's unions.
    let corpus = corpus::registry();
    let definitions = Provider::Anthropic { strict: true }
        .definitions(&corpus)
        .expect("definitions");
    let spent = AnthropicBudget::of(definitions.as_json());
    assert!(
        spent.within_limits(),
        "corpus: {spent:?} for limits {:?}",
        AnthropicBudget::LIMITS
    );
}

#[test]
fn anthropic_strict_optional_properties_are_not_null_unions() {
    // Optional by omission (docs/providers.md 7.2): `get_weather`'s
    // `location.country` is `{"type": "string"}`, not `["string", "null"]`,
    // and `units` its enum, not `anyOf: [.., {"type": "null"}]`; null
    // choices would use up the budget of 16 unions.
    let provider = Provider::Anthropic { strict: true };
    let registry = corpus::registry();
    let definitions = provider.definitions(&registry).expect("definitions");
    let mut nullable = Vec::new();
    for tool in tool_list(provider, definitions.as_json()) {
        if strict_of(provider, tool) != Some(true) {
            continue;
        }
        let name = name_of(provider, tool).unwrap_or_default();
        for node in nodes(schema_of(provider, tool).expect("a schema")) {
            let Some(map) = node.schema.as_object() else {
                continue;
            };
            let required = required_names(map);
            let properties = map.get("properties").and_then(Value::as_object);
            for (property, schema) in properties.into_iter().flatten() {
                if !required.contains(&property.as_str()) && accepts_null(schema) {
                    nullable.push(format!("`{name}` {}/properties/{property}", node.at));
                }
            }
        }
    }
    assert!(
        nullable.is_empty(),
        "optional and nullable:\n{}",
        nullable.join("\n")
    );
}

/// Whether a schema spells out that it accepts `null`.
fn accepts_null(schema: &Value) -> bool {
    let null = Value::from("null");
    let in_type = match schema.get("type") {
        Some(Value::Array(types)) => types.contains(&null),
        Some(t) => *t == null,
        None => false,
    };
    let in_choice = schema
        .get("anyOf")
        .and_then(Value::as_array)
        .is_some_and(|branches| branches.iter().any(accepts_null));
    in_type || in_choice
}

/// The top-level properties of the tool `name` in a provider's form: none
/// for a tool without arguments whose declaration has no schema (Gemini's
/// OpenAPI form).
fn properties_in<'d>(tools: &'d Value, provider: Provider, name: &str) -> &'d Map<String, Value> {
    static NONE: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);
    let tool = tool_list(provider, tools)
        .into_iter()
        .find(|tool| name_of(provider, tool) == Some(name))
        .unwrap_or_else(|| panic!("{provider}: no tool `{name}`"));
    match schema_of(provider, tool) {
        None => &NONE,
        Some(schema) => schema
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or_else(|| panic!("{provider}: no properties for `{name}`")),
    }
}

/// Each top-level property of each corpus tool, as derived (MCP's form,
/// which keeps the schema as it is) and as Gemini's OpenAPI form writes it:
/// `check` returns what is wrong with the pair, if anything; all of it.
fn openapi_property_problems(check: impl Fn(&Value, &Value) -> Option<String>) -> Vec<String> {
    let registry = corpus::registry();
    let mcp = Provider::Mcp.definitions(&registry).expect("definitions");
    let legacy = Provider::Gemini { openapi: true };
    let openapi = legacy.definitions(&registry).expect("definitions");
    let mut problems = Vec::new();
    for definition in registry.tool_definitions() {
        let name = &*definition.name;
        let original = properties_in(mcp.as_json(), Provider::Mcp, name);
        let written = properties_in(openapi.as_json(), legacy, name);
        for (property, schema) in original {
            let problem = check(schema, &written[property]);
            problems.extend(problem.map(|problem| format!("`{name}`.{property}: {problem}")));
        }
    }
    problems
}

#[test]
fn gemini_openapi_keeps_the_type_of_every_property() {
    // `draw_shape`'s `outline` (`Option<Shape>`) and `search_documents`'
    // `sortOrder` (`Option<SortOrder>`) are `anyOf: [{"oneOf": [..]},
    // {"type": "null"}]`: once the `null` goes (into `nullable`), the
    // `oneOf` left must still become a choice, not a note in a description.
    let untyped = openapi_property_problems(|schema, written| {
        // A `serde_json::Value` has no type to keep.
        let any_value = schema
            .as_object()
            .is_some_and(|m| m.keys().all(|k| k == "description"));
        let typed = ["type", "anyOf", "enum"]
            .iter()
            .any(|k| written.get(*k).is_some());
        (!any_value && !typed).then(|| written.to_string())
    });
    assert!(
        untyped.is_empty(),
        "properties without a type:\n{}",
        untyped.join("\n")
    );
}

#[test]
fn gemini_openapi_keeps_the_description_of_a_choice() {
    // `draw_shape`'s `shape` ("The shape."), `perform_action`'s `action`
    // ("What to do."), `find_target`'s `target` ("What to find."): with
    // `anyOf` alone in its node, the parameter's doc comment must reach the
    // model in each choice, beside the choice's own.
    let lost = openapi_property_problems(|schema, written| {
        let description = schema.get("description").and_then(Value::as_str)?;
        let says = |s: &Value| {
            s.get("description")
                .and_then(Value::as_str)
                .is_some_and(|d| d.contains(description))
        };
        let kept = match written.get("anyOf").and_then(Value::as_array) {
            Some(branches) => branches.iter().all(says),
            None => says(written),
        };
        (!kept).then(|| format!("{description:?} missing from {written}"))
    });
    assert!(lost.is_empty(), "descriptions lost:\n{}", lost.join("\n"));
}
