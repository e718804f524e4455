//! Arguments as a JSON string (OpenAI's form), read straight into a
//! `#[tool]` function's parameters when nothing else needs them: every
//! call must end exactly as it does the whole way round (a value made of
//! the text, the schema's check, then the parameters), which a registry
//! with an observer always goes.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Map, Value, json};
use tokio::runtime::Runtime;
use tool_core::observe::CallObserver;
use tool_core::registry::RegistryBuilder;
use tool_core::registry::Validation;
use tool_core::{ToolContext, ToolRegistry, tool};

/// Add a note.
#[tool(tier = Observe, concurrency_safe)]
#[allow(clippy::too_many_arguments)]
fn add_note(
    /// The title.
    title: String,
    /// 1 (highest) to 5.
    priority: u8,
    /// Done already?
    done: Option<bool>,
    /// Tags.
    tags: Vec<String>,
    /// The weight.
    weight: f64,
    /// A mark.
    mark: Option<char>,
    /// Offsets.
    offsets: Option<Vec<i16>>,
) -> String {
    format!("{title}|{priority}|{done:?}|{tags:?}|{weight}|{mark:?}|{offsets:?}")
}

/// The same, as an `async fn`.
#[tool(tier = Observe, concurrency_safe)]
async fn add_note_later(
    /// The title.
    title: String,
    /// 1 (highest) to 5.
    priority: u8,
) -> String {
    format!("{title}|{priority}")
}

/// Watches every call: its registry reads no text.
struct Watch;

impl CallObserver for Watch {}

fn registries(validation: Validation) -> (ToolRegistry, ToolRegistry) {
    let registry = || {
        ToolRegistry::builder()
            .with(AddNote)
            .with(AddNoteLater)
            .validation(validation)
            .build()
    };
    (
        registry(),
        RegistryBuilder::from(registry()).observer(Watch).build(),
    )
}

/// The call of `tool` with `text`, as the model reads its result, by both
/// registries; they must agree.
fn agree(
    runtime: &Runtime,
    (text_way, whole_way): &(ToolRegistry, ToolRegistry),
    tool: &str,
    text: &str,
) -> Result<String, String> {
    let ctx = ToolContext::new(());
    let call = |registry: &ToolRegistry| {
        let result = runtime.block_on(registry.call(&ctx, tool, Value::String(text.to_owned())));
        (format!("{result:?}"), result.model_text().into_owned())
    };
    let ((read, model_text), (whole, _)) = (call(text_way), call(whole_way));
    if read == whole {
        Ok(model_text)
    } else {
        Err(format!(
            "{tool} {text}\n  from the text: {read}\n  the whole way: {whole}"
        ))
    }
}

const CORPUS: &[&str] = &[
    r#"{"title":"Groceries","priority":2,"tags":[],"weight":1}"#,
    r#" { "title" : "G" , "priority" : 5 , "tags" : ["a","b"] , "weight" : -1.5e2 , "done" : true } "#,
    r#"{"title":"tab\there \"quoted\" \u00e9 \ud83d\ude00","priority":0,"tags":["\n"],"weight":0.1}"#,
    r#"{"title":"G","priority":2,"tags":[],"weight":1,"done":null,"mark":null,"offsets":null}"#,
    r#"{"title":"G","priority":2,"tags":[],"weight":1,"mark":"x","offsets":[-32768,32767]}"#,
    // Missing, unknown, twice.
    r#"{"priority":2,"tags":[],"weight":1}"#,
    r#"{}"#,
    r#"{"title":"G","priority":2,"tags":[],"weight":1,"colour":"red"}"#,
    r#"{"title":"G","title":"H","priority":2,"tags":[],"weight":1}"#,
    r#"{"titl\u0065":"G","priority":2,"tags":[],"weight":1}"#,
    // Wrong types and ranges.
    r#"{"title":1,"priority":2,"tags":[],"weight":1}"#,
    r#"{"title":"G","priority":300,"tags":[],"weight":1}"#,
    r#"{"title":"G","priority":-1,"tags":[],"weight":1}"#,
    r#"{"title":"G","priority":2.0,"tags":[],"weight":1}"#,
    r#"{"title":"G","priority":2.5,"tags":[],"weight":1}"#,
    r#"{"title":"G","priority":"2","tags":[],"weight":1}"#,
    r#"{"title":"G","priority":2,"tags":"a","weight":1}"#,
    r#"{"title":"G","priority":2,"tags":[1],"weight":1}"#,
    r#"{"title":"G","priority":2,"tags":[],"weight":"1"}"#,
    r#"{"title":"G","priority":2,"tags":[],"weight":1e400}"#,
    r#"{"title":"G","priority":2,"tags":[],"weight":1,"mark":"xy"}"#,
    r#"{"title":"G","priority":2,"tags":[],"weight":1,"offsets":[40000]}"#,
    r#"{"title":null,"priority":2,"tags":[],"weight":1}"#,
    r#"{"title":{"a":1},"priority":2,"tags":[],"weight":1}"#,
    // Not one object.
    "",
    "   ",
    "null",
    "\"null\"",
    "[]",
    "7",
    "{",
    r#"{"title":"G","priority":2,"tags":[],"weight":1"#,
    r#"{"title":"G","priority":2,"tags":[],"weight":1,}"#,
    r#"{"title":"G","priority":2,"tags":[],"weight":1}}"#,
    r#"{"title":"G","priority":2,"tags":[],"weight":1} trailing"#,
    r#"{"title":"G" "priority":2,"tags":[],"weight":1}"#,
    r#"{"title":"G","priority":2,"tags":[],"weight":01}"#,
    r#"{"title":"G","priority":2,"tags":[],"weight":1}{}"#,
    "{\"title\":\"a\nb\",\"priority\":2,\"tags\":[],\"weight\":1}",
];

#[test]
fn a_call_read_from_the_text_ends_as_it_does_the_whole_way() {
    let runtime = Runtime::new().unwrap();
    for validate in [Validation::Auto, Validation::Off] {
        let registries = registries(validate);
        for text in CORPUS {
            for tool in ["add_note", "add_note_later"] {
                if let Err(differ) = agree(&runtime, &registries, tool, text) {
                    panic!("validation {validate:?}: {differ}");
                }
            }
        }
    }
}

#[test]
fn what_the_model_reads_is_the_same_either_way() {
    let runtime = Runtime::new().unwrap();
    let registries = registries(Validation::Auto);
    let text = |text: &str| agree(&runtime, &registries, "add_note", text).unwrap();
    let cases = [
        (
            r#"{"title":"G","priority":2,"tags":["a"],"weight":1}"#,
            r#"G|2|None|["a"]|1|None|None"#,
        ),
        (
            r#"{"title":"G","priority":300,"tags":[],"weight":1}"#,
            "invalid arguments for tool `add_note`: argument `priority` at `/priority`: must be \
             at most 255, got 300. Correct the arguments and call the tool again.",
        ),
        (
            r#"{"title":"G","priority":2,"tags":[],"weight":1,"colour":"red"}"#,
            "invalid arguments for tool `add_note`: unknown argument `colour`; expected one of \
             `title`, `priority`, `done`, `tags`, `weight`, `mark`, `offsets`. Correct the \
             arguments and call the tool again.",
        ),
        (
            r#"{"title":"G","title":"H","priority":2,"tags":[],"weight":1}"#,
            "invalid arguments for tool `add_note`: argument `title` is given twice; give it \
             once. Correct the arguments and call the tool again.",
        ),
    ];
    for (args, expected) in cases {
        assert_eq!(text(args), expected, "{args}");
    }
}

/// Any object of the parameters' keys and one more, with values of any
/// kind, written compact or spaced.
fn arguments() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u16..400).prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |x| x.is_finite())
            .prop_map(Value::from),
        "[a-z\"\\\\ \u{e9}]{0,3}".prop_map(Value::from),
    ];
    let value = leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::from),
            prop::collection::btree_map("[a-z]{1,2}", inner, 0..2)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    });
    let key = prop_oneof![
        Just("title"),
        Just("priority"),
        Just("done"),
        Just("tags"),
        Just("weight"),
        Just("mark"),
        Just("offsets"),
        Just("other"),
    ];
    (prop::collection::vec((key, value), 0..8), any::<bool>()).prop_map(|(entries, pretty)| {
        let object: Map<String, Value> = entries
            .into_iter()
            .map(|(key, value)| (key.to_owned(), value))
            .collect();
        let object = Value::Object(object);
        if pretty {
            serde_json::to_string_pretty(&object).expect("a value prints")
        } else {
            object.to_string()
        }
    })
}

#[test]
fn any_arguments_end_alike_either_way() {
    let runtime = Runtime::new().unwrap();
    let registries = [registries(Validation::Auto), registries(Validation::Off)];
    let config = Config {
        cases: 512,
        failure_persistence: None,
        ..Config::default()
    };
    let well_formed = prop_oneof![
        Just(json!({"title": "G", "priority": 2, "tags": [], "weight": 1}).to_string()),
        arguments(),
    ];
    let result = TestRunner::new(config).run(&well_formed, |text| {
        for pair in &registries {
            agree(&runtime, pair, "add_note", &text).map_err(TestCaseError::fail)?;
        }
        Ok(())
    });
    if let Err(error) = result {
        panic!("{error}");
    }
}

/// Yes or no: `true` and `false`, and the words too, which its schema
/// (a boolean) does not say.
struct Lenient(bool);

impl<'de> serde::Deserialize<'de> for Lenient {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match <Value as serde::Deserialize>::deserialize(deserializer)? {
            Value::Bool(flag) => Ok(Lenient(flag)),
            Value::String(word) if word == "yes" => Ok(Lenient(true)),
            Value::String(word) if word == "no" => Ok(Lenient(false)),
            other => Err(serde::de::Error::custom(format!("not yes or no: {other}"))),
        }
    }
}

impl schemars::JsonSchema for Lenient {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Lenient".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "boolean"})
    }
    fn inline_schema() -> bool {
        true
    }
}

/// Archive a note.
#[tool(tier = Observe, concurrency_safe)]
fn archive(
    /// Whether to archive it.
    archived: Lenient,
) -> String {
    format!("archived: {}", archived.0)
}

/// `Validation::Always` checks every call against the schema first,
/// whether its arguments come as a value or as OpenAI's text: the schema
/// says boolean, so `"yes"` is refused both ways, though the type's own
/// reading takes it.
#[tokio::test]
async fn always_checks_arguments_given_as_text_as_it_checks_a_value() {
    let checked: ToolRegistry = ToolRegistry::builder()
        .with(Archive)
        .validation(Validation::Always)
        .build();
    let ctx = ToolContext::new(());
    let refused = "invalid arguments for tool `archive`: argument `archived` at `/archived`: expected a boolean, got a string `yes`. Correct the arguments and call the tool again.";
    let as_value = checked
        .call(&ctx, "archive", json!({"archived": "yes"}))
        .await;
    assert_eq!(as_value.model_text(), refused);
    let as_text = checked
        .call(&ctx, "archive", json!("{\"archived\": \"yes\"}"))
        .await;
    assert_eq!(as_text.model_text(), refused);
    // What the schema takes runs both ways.
    for arguments in [json!({"archived": true}), json!("{\"archived\": true}")] {
        assert_eq!(
            checked.call(&ctx, "archive", arguments).await.model_text(),
            "archived: true"
        );
    }
    // By default the type's own reading decides, both ways alike.
    let auto: ToolRegistry = ToolRegistry::new().with(Archive);
    for arguments in [json!({"archived": "yes"}), json!("{\"archived\": \"yes\"}")] {
        assert_eq!(
            auto.call(&ctx, "archive", arguments).await.model_text(),
            "archived: true"
        );
    }
}
