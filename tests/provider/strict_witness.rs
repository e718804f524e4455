//! No strict definition may leave the model only calls the registry
//! refuses. For each strict mode (OpenAI's, Anthropic's) and each schema it
//! makes strict (the corpus's, and shapes proptest generates), a witness is
//! built from the tool's own schema: every required property, one entry in
//! each object whose keys are free (a map the model fills), the least value
//! each leaf takes. The registry must accept it, and, written as the strict
//! mode has the model write it (OpenAI: the optional properties it left out
//! as `null`), the strict schema must too. A definition every valid call of
//! which the registry refuses fails here: a free-form object closed to `{}`
//! (the witness's entry is refused), or `required` names dropped with the
//! properties that do not describe them.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Map, Value, json};
use tool_core::policy::ToolTier;
use tool_core::provider::Provider;
use tool_core::{BoxFuture, Tool, ToolContext, ToolError, ToolMetadata, ToolRegistry, ToolResult};

use crate::corpus;

/// How many of the corpus's tools the two strict modes make strict.
const CHECKED: usize = 32;

const STRICT: [Provider; 2] = [
    Provider::OpenAiChat { strict: true },
    Provider::Anthropic { strict: true },
];

/// A tool of any schema, answering with its arguments.
struct Shaped {
    name: String,
    schema: Value,
}

impl Tool for Shaped {
    fn name(&self) -> &str {
        &self.name
    }
    fn description(&self) -> &str {
        "A shape."
    }
    fn input_schema(&self) -> Value {
        self.schema.clone()
    }
    fn metadata(&self) -> ToolMetadata {
        ToolMetadata {
            tier: ToolTier::Observe,
            ..ToolMetadata::DEFAULT
        }
    }
    fn call<'a>(&'a self, _: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move { ToolResult::json(args) })
    }
}

/// `schema` at `node`'s place: `node` with the root's definitions beside
/// it, so that its references resolve.
fn within(root: &Value, node: &Value) -> Value {
    let mut schema = match node {
        Value::Object(map) => map.clone(),
        Value::Bool(true) => Map::new(),
        _ => return node.clone(),
    };
    for defs in ["$defs", "definitions"] {
        if let Some(found) = root.get(defs) {
            schema.entry(defs).or_insert_with(|| found.clone());
        }
    }
    Value::Object(schema)
}

/// Whether `schema` takes `instance`, formats checked as the registry
/// checks them.
fn valid(schema: &Value, instance: &Value) -> bool {
    jsonschema::options()
        .should_validate_formats(true)
        .should_ignore_unknown_formats(true)
        .build(schema)
        .is_ok_and(|v| v.is_valid(instance))
}

/// `node` with its `$ref`s followed.
fn resolve<'a>(root: &'a Value, mut node: &'a Value) -> &'a Value {
    for _ in 0..32 {
        match node.get("$ref").and_then(Value::as_str) {
            Some("#") => node = root,
            Some(reference) => match root.pointer(reference.trim_start_matches('#')) {
                Some(target) => node = target,
                None => return node,
            },
            None => return node,
        }
    }
    node
}

/// The least instance `node` (within `root`) describes.
fn witness(root: &Value, node: &Value, depth: usize) -> Value {
    let target = resolve(root, node);
    let Some(map) = target.as_object() else {
        return json!(0);
    };
    if let Some(value) = map.get("const") {
        return value.clone();
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        return values
            .iter()
            .find(|v| !v.is_null())
            .cloned()
            .unwrap_or(Value::Null);
    }
    for choice in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = map.get(choice) {
            let mut branches = branches
                .iter()
                .filter(|b| b.get("type") != Some(&json!("null")));
            if let Some(branch) = branches.next() {
                // A branch merged with what the node says beside it (a
                // flattened enum's properties).
                let mut merged = map.clone();
                merged.remove(choice);
                if let Value::Object(own) = resolve(root, branch) {
                    for (k, v) in own {
                        match (merged.get_mut(k), v) {
                            (Some(Value::Object(mine)), Value::Object(theirs)) => {
                                mine.extend(theirs.clone())
                            }
                            (Some(Value::Array(mine)), Value::Array(theirs)) => {
                                mine.extend(theirs.clone())
                            }
                            _ => {
                                merged.insert(k.clone(), v.clone());
                            }
                        }
                    }
                }
                return witness(root, &Value::Object(merged), depth + 1);
            }
        }
    }
    let types: Vec<&str> = match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ if map.contains_key("properties") => vec!["object"],
        _ => vec![],
    };
    let Some(kind) = types.iter().find(|t| **t != "null").copied() else {
        return if types.is_empty() {
            json!(0)
        } else {
            Value::Null
        };
    };
    match kind {
        "object" => object_witness(root, map, depth),
        "array" => {
            let least = map.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
            let mut items: Vec<Value> = map
                .get("prefixItems")
                .and_then(Value::as_array)
                .map(|prefix| prefix.iter().map(|p| witness(root, p, depth + 1)).collect())
                .unwrap_or_default();
            let item = map.get("items").filter(|i| i.is_object());
            while items.len() < least {
                items.push(item.map_or(json!(0), |i| witness(root, i, depth + 1)));
            }
            Value::Array(items)
        }
        leaf => first_valid(&within(root, target), leaf),
    }
}

fn object_witness(root: &Value, map: &Map<String, Value>, depth: usize) -> Value {
    let mut object = Map::new();
    let properties = map.get("properties").and_then(Value::as_object);
    let required: Vec<&str> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let other = map.get("additionalProperties").filter(|a| a.is_object());
    for name in required {
        let value = match properties.and_then(|p| p.get(name)).or(other) {
            Some(schema) => witness(root, schema, depth + 1),
            None => json!(0),
        };
        object.insert(name.to_owned(), value);
    }
    // A map: one entry, as the model would fill it.
    let free = properties.is_none_or(Map::is_empty) && !map.contains_key("patternProperties");
    match map.get("additionalProperties") {
        None | Some(Value::Bool(true)) if free => {
            object.insert("entry".into(), json!(0));
        }
        Some(schema @ Value::Object(_)) if free && depth < 8 => {
            object.insert("entry".into(), witness(root, schema, depth + 1));
        }
        _ => {}
    }
    Value::Object(object)
}

/// The first of a few plain values of `kind` that `schema` takes.
fn first_valid(schema: &Value, kind: &str) -> Value {
    let candidates: Vec<Value> = match kind {
        "string" => [
            "a",
            "",
            "AAA",
            "CORE-1",
            "+33 1234567",
            "2026-01-01T00:00:00Z",
            "2026-01-01",
            "10:00:00Z",
            "a@example.com",
            "https://example.com",
            "example.com",
            "127.0.0.1",
            "::1",
            "67e55044-10b1-426f-9247-bb680e5fe0c8",
            "P1D",
        ]
        .map(Value::from)
        .to_vec(),
        "integer" => {
            let low = schema.get("minimum").and_then(Value::as_i64);
            let above = schema
                .get("exclusiveMinimum")
                .and_then(Value::as_i64)
                .map(|n| n + 1);
            [low, above, Some(0), Some(1), Some(-1)]
                .into_iter()
                .flatten()
                .map(Value::from)
                .collect()
        }
        "number" => [
            schema.get("minimum").and_then(Value::as_f64),
            Some(0.0),
            Some(1.0),
            Some(0.5),
        ]
        .into_iter()
        .flatten()
        .map(Value::from)
        .collect(),
        "boolean" => vec![json!(false)],
        _ => vec![Value::Null],
    };
    let subject = json!({"type": "object", "properties": {"v": schema}, "required": ["v"]});
    candidates
        .iter()
        .find(|c| valid(&subject, &json!({"v": c})))
        .cloned()
        .unwrap_or_else(|| candidates[0].clone())
}

/// The witness as the strict schema `t` has the model write it: every
/// property `t` requires and the witness left out, `null`. Each choice's
/// branch is tried until one takes it.
fn in_strict_form(root: &Value, t: &Value, instance: &Value) -> Value {
    let node = resolve(root, t);
    if let Some(Value::Array(branches)) = node.get("anyOf") {
        for branch in branches {
            let written = in_strict_form(root, branch, instance);
            if valid(&within(root, branch), &written) {
                return written;
            }
        }
        return instance.clone();
    }
    match instance {
        Value::Object(object) => {
            let mut object = object.clone();
            let properties = node.get("properties").and_then(Value::as_object);
            let required: Vec<&str> = node
                .get("required")
                .and_then(Value::as_array)
                .map(|names| names.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for (name, property) in properties.into_iter().flatten() {
                match object.get(name) {
                    Some(value) => {
                        let written = in_strict_form(root, property, value);
                        object.insert(name.clone(), written);
                    }
                    None if required.contains(&name.as_str()) => {
                        object.insert(name.clone(), Value::Null);
                    }
                    None => {}
                }
            }
            Value::Object(object)
        }
        Value::Array(items) => match node.get("items") {
            Some(item) => Value::Array(
                items
                    .iter()
                    .map(|i| in_strict_form(root, item, i))
                    .collect(),
            ),
            None => instance.clone(),
        },
        _ => instance.clone(),
    }
}

/// The strict parameters of the one tool of a definitions list.
fn parameters(provider: Provider, tool: &Value) -> Value {
    match provider {
        Provider::OpenAiChat { .. } => tool["function"]["parameters"].clone(),
        _ => tool["input_schema"].clone(),
    }
}

/// The property on one tool schema: what goes wrong, or how many strict
/// definitions it was checked on.
fn check(name: &str, schema: &Value, runtime: &tokio::runtime::Runtime) -> Result<usize, String> {
    let registry = ToolRegistry::new().with(Shaped {
        name: name.to_owned(),
        schema: schema.clone(),
    });
    let instance = witness(schema, schema, 0);
    let result = runtime.block_on(registry.call(&ToolContext::new(()), name, instance.clone()));
    if let Some(ToolError::InvalidArguments { .. }) = result.tool_error() {
        return Err(format!(
            "{name}: the registry refuses the witness {instance}: {}",
            result.model_text()
        ));
    }
    let mut checked = 0;
    for provider in STRICT {
        let definitions = provider.definitions(&registry).map_err(|e| e.to_string())?;
        if !definitions.not_strict().is_empty() {
            continue;
        }
        checked += 1;
        let strict = parameters(provider, &definitions.as_json()[0]);
        let written = in_strict_form(&strict, &strict, &instance);
        if !valid(&strict, &written) {
            return Err(format!(
                "{name}, {provider}: the registry takes {instance}, the strict schema refuses {written}:\n{strict:#}"
            ));
        }
    }
    Ok(checked)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

#[test]
fn every_strict_corpus_definition_takes_a_call_the_registry_takes() {
    let runtime = runtime();
    let registry = corpus::registry();
    let mut problems = Vec::new();
    let mut checked = 0;
    for definition in registry.tool_definitions() {
        match check(&definition.name, &definition.input_schema, &runtime) {
            Ok(count) => checked += count,
            Err(problem) => problems.push(problem),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    // The strict definitions among the corpus's, of both modes.
    assert_eq!(checked, CHECKED);
}

/// Object shapes: with properties or without, `required` names described
/// or not, `additionalProperties` absent, `true`, `false` or a schema,
/// optional values, enums, constrained leaves, nested.
fn shape() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(json!({"type": "string"})),
        Just(json!({"type": "string", "minLength": 2})),
        Just(json!({"type": "integer", "minimum": 1})),
        Just(json!({"type": ["number", "null"]})),
        Just(json!({"type": "boolean"})),
        Just(json!({"type": "string", "enum": ["red", "green"]})),
        Just(
            json!({"oneOf": [{"type": "string", "const": "a"}, {"type": "string", "const": "b"}]})
        ),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        (
            proptest::collection::vec(inner.clone(), 0..4),
            proptest::collection::vec(any::<bool>(), 4),
            0..4usize,
            any::<bool>(),
            any::<bool>(),
            inner,
        )
            .prop_map(|(props, required, extra, undescribed, optional, value)| {
                let mut properties = Map::new();
                let mut names = Vec::new();
                for (at, p) in props.into_iter().enumerate() {
                    let name = format!("p{at}");
                    if required[at] {
                        names.push(json!(name));
                    }
                    properties.insert(name, p);
                }
                let mut object = json!({"type": "object"});
                if !properties.is_empty() || extra == 0 {
                    object["properties"] = Value::Object(properties);
                }
                // Closed, an undescribed required name leaves no valid
                // call to begin with.
                if undescribed && extra != 2 {
                    names.push(json!("undescribed"));
                }
                if !names.is_empty() {
                    object["required"] = Value::Array(names);
                }
                match extra {
                    1 => object["additionalProperties"] = json!(true),
                    2 => object["additionalProperties"] = json!(false),
                    3 => object["additionalProperties"] = value,
                    _ => {}
                }
                if optional {
                    json!({"anyOf": [object, {"type": "null"}]})
                } else {
                    object
                }
            })
    })
}

#[test]
fn every_strict_definition_of_generated_shapes_takes_a_call_the_registry_takes() {
    let runtime = runtime();
    let mut runner = TestRunner::new(Config {
        cases: 256,
        failure_persistence: None,
        ..Config::default()
    });
    let root =
        (proptest::collection::vec(shape(), 0..4), any::<bool>()).prop_map(|(props, closed)| {
            let properties: Map<String, Value> = props
                .into_iter()
                .enumerate()
                .map(|(at, p)| (format!("a{at}"), p))
                .collect();
            let names: Vec<Value> = properties.keys().map(|k| json!(k)).collect();
            let mut root = json!({"type": "object", "properties": properties, "required": names});
            if closed {
                root["additionalProperties"] = json!(false);
            }
            root
        });
    runner
        .run(&root, |schema| {
            check("shape", &schema, &runtime)
                .map(drop)
                .map_err(TestCaseError::fail)
        })
        .unwrap();
}

#[test]
fn a_free_form_object_and_undescribed_required_names_are_blockers() {
    let registry = ToolRegistry::new().with(Shaped {
        name: "store".into(),
        schema: json!({"type": "object", "properties": {
            "labels": {"type": "object", "description": "Any labels."},
            "headers": {"type": "object", "required": ["host"]}
        }, "required": ["labels", "headers"], "additionalProperties": false}),
    });
    for (provider, mode) in [
        (Provider::OpenAiChat { strict: true }, "strict mode"),
        (Provider::Anthropic { strict: true }, "strict tool use"),
    ] {
        let definitions = provider.definitions(&registry).unwrap();
        assert_eq!(
            definitions.not_strict()[0].to_string(),
            format!(
                "tool `store` is sent with `strict: false`: its input schema cannot be made strict \
                 (at `/properties/labels`: a free-form object (no `properties`, any keys allowed): {mode} closes every object, which would leave it only `{{}}`; \
                 at `/properties/headers`: an object that requires `host` without describing it: {mode} closes every object, so no call could have it; \
                 at `/properties/headers`: a free-form object (no `properties`, any keys allowed): {mode} closes every object, which would leave it only `{{}}`)"
            ),
            "{provider}"
        );
    }
}
