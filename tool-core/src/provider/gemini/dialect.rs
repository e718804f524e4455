//! Gemini's two schema forms: `parametersJsonSchema` (JSON Schema, the
//! default) and the legacy `parameters` (a subset of OpenAPI 3.0's Schema).

use serde_json::{Map, Value};

use crate::schema::dialect::refs::{Inline, inline};
use crate::schema::dialect::subset::simplify;
use crate::schema::dialect::walk::children;
use crate::schema::dialect::{Unfit, describe, drop_null, keep_only, one_of_as_any_of, plain};

/// Keywords `parametersJsonSchema` takes: those of docs/providers.md 3.3
/// that google-genai's own `JSONSchema` model has a field for, since it
/// refuses a schema with any other (3.3: not `prefixItems`, which
/// [`simplify`] rewrites, nor `propertyOrdering`, which the key order
/// already says).
const JSON_SCHEMA_KEPT: [&str; 15] = [
    "type",
    "format",
    "description",
    "enum",
    "items",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "properties",
    "additionalProperties",
    "required",
    "$ref",
    "$defs",
];

/// Fields of the OpenAPI `Schema` the legacy `parameters` takes.
const OPENAPI_KEPT: [&str; 20] = [
    "type",
    "format",
    "description",
    "nullable",
    "enum",
    "items",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "propertyOrdering",
    "anyOf",
    "default",
];

/// The schema for `parametersJsonSchema`: references inlined (the inner
/// level of a recursive type described, not repeated), no `$schema`
/// and no `title` anywhere, `const` as a one-value `enum`, `oneOf` as
/// `anyOf`, tuples as arrays of a choice, and only the keywords Gemini
/// takes; what the others said is kept in the description. Or everything
/// Gemini cannot be told, in the order met.
pub(crate) fn gemini(schema: &Value) -> Result<Value, Vec<Unfit>> {
    rewrite(schema, Form::JsonSchema)
}

/// The schema for the legacy `parameters` (what the Live API takes): every
/// reference inlined as for [`gemini`], upper-case
/// types, `nullable` instead of `null` in a type or a choice, string enums
/// only, no `additionalProperties`, tuples as arrays of a choice, and
/// property names Gemini accepts, and each object's `propertyOrdering`
/// (the OpenAPI form has no key order of its own).
pub(crate) fn gemini_openapi(schema: &Value) -> Result<Value, Vec<Unfit>> {
    rewrite(schema, Form::OpenApi)
}

fn rewrite(schema: &Value, form: Form) -> Result<Value, Vec<Unfit>> {
    let mut unfit = Vec::new();
    let mut schema = inline(plain(schema), Inline::CutRecursion, &mut unfit);
    pass(&mut schema, "", form, &mut unfit);
    if unfit.is_empty() {
        Ok(schema)
    } else {
        Err(unfit)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    JsonSchema,
    OpenApi,
}

fn pass(node: &mut Value, at: &str, form: Form, unfit: &mut Vec<Unfit>) {
    let Value::Object(map) = node else {
        return;
    };
    simplify(map);
    if form == Form::OpenApi {
        openapi_node(map, at, unfit);
    }
    let kept: &[&str] = match form {
        Form::JsonSchema => &JSON_SCHEMA_KEPT,
        Form::OpenApi => &OPENAPI_KEPT,
    };
    keep_only(map, |keyword, value| {
        kept.contains(&keyword) && (keyword != "format" || known_format(value, form))
    });
    let names: Vec<String> = match map.get("properties") {
        Some(Value::Object(properties)) => properties.keys().cloned().collect(),
        _ => Vec::new(),
    };
    if let Some(Value::Array(required)) = map.get_mut("required") {
        required.retain(|name| name.as_str().is_some_and(|n| names.iter().any(|p| p == n)));
    }
    if form == Form::OpenApi && names.len() > 1 {
        map.insert("propertyOrdering".into(), names.into());
    }
    children(map, at, &mut |child, pointer| {
        pass(child, pointer, form, unfit)
    });
    if form == Form::OpenApi && map.contains_key("anyOf") {
        if at.is_empty() {
            unfit.push(Unfit::new(
                at,
                "the arguments are one of several objects (a flattened enum?), which Gemini's OpenAPI form cannot say at the root; use `parametersJsonSchema` (`Provider::Gemini { openapi: false }`)",
            ));
            return;
        }
        any_of_alone(map);
    }
}

/// What the OpenAPI form changes on one node before its keywords are sorted.
fn openapi_node(map: &mut Map<String, Value>, at: &str, unfit: &mut Vec<Unfit>) {
    // `null` in a type, an enum or a choice becomes `nullable`; a choice
    // left with one branch was merged, and may bring a `oneOf` of its own.
    if drop_null(map) {
        map.insert("nullable".into(), Value::Bool(true));
    }
    one_of_as_any_of(map);
    if let Some(Value::Array(values)) = map.get("enum")
        && !values.iter().all(Value::is_string)
    {
        let values = Value::Array(values.clone());
        map.remove("enum");
        describe(map, &[("enum".to_owned(), values)]);
    }
    if let Some(Value::Object(properties)) = map.get("properties") {
        for name in properties
            .keys()
            .filter(|name| !is_openapi_property_name(name))
        {
            unfit.push(Unfit::new(
                at,
                format!(
                    "property `{name}`: Gemini's `parameters` take names of letters, digits and `_`, starting with a letter or `_`, at most 64"
                ),
            ));
        }
    }
    match map.get_mut("type") {
        Some(Value::String(t)) => *t = t.to_uppercase(),
        Some(Value::Array(types)) => {
            // Several types have no OpenAPI spelling but a choice.
            let branches: Vec<Value> = types
                .iter()
                .filter_map(Value::as_str)
                .map(|t| serde_json::json!({ "type": t.to_uppercase() }))
                .collect();
            map.remove("type");
            map.insert("anyOf".into(), Value::Array(branches));
        }
        _ => {}
    }
}

/// Vertex AI takes `anyOf` only as the sole field of its node: what the
/// node says moves into each choice. Its description comes first (a
/// choice's own follows in parentheses), its properties and required names
/// join each choice's (a struct with a flattened enum), the rest fills what
/// a choice leaves unsaid.
fn any_of_alone(map: &mut Map<String, Value>) {
    let Some(Value::Array(mut branches)) = map.remove("anyOf") else {
        return;
    };
    let shared: Map<String, Value> = std::mem::take(map);
    for branch in &mut branches {
        let Value::Object(branch) = branch else {
            continue;
        };
        for (keyword, value) in &shared {
            match (keyword.as_str(), branch.get_mut(keyword), value) {
                ("description", Some(Value::String(own)), Value::String(node)) => {
                    *own = format!("{node} ({own})");
                }
                ("properties", Some(Value::Object(own)), Value::Object(node)) => {
                    let mut merged = node.clone();
                    merged.extend(std::mem::take(own));
                    *own = merged;
                }
                ("required", Some(Value::Array(own)), Value::Array(node)) => {
                    for name in node.iter().rev() {
                        if !own.contains(name) {
                            own.insert(0, name.clone());
                        }
                    }
                }
                ("propertyOrdering", Some(_), _) => {}
                (_, Some(_), _) => {}
                (_, None, value) => {
                    branch.insert(keyword.clone(), value.clone());
                }
            }
        }
        if let Some(Value::Object(properties)) = branch.get("properties")
            && properties.len() > 1
        {
            let names: Vec<Value> = properties.keys().cloned().map(Value::String).collect();
            branch.insert("propertyOrdering".into(), Value::Array(names));
        }
    }
    map.insert("anyOf".into(), Value::Array(branches));
}

/// `^[A-Za-z_][A-Za-z0-9_]{0,63}$`.
fn is_openapi_property_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == b'_')
        && name.len() <= 64
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Whether Gemini knows a `format`: `int32`/`int64` for integers,
/// `float`/`double` for numbers, `date-time` (and, in the OpenAPI form,
/// `enum`) for strings. schemars' other number formats (`uint8`, ...) only
/// restate the Rust type and go silently; other string formats go into the
/// description.
fn known_format(format: &Value, form: Form) -> bool {
    match format.as_str() {
        Some("int32" | "int64" | "float" | "double" | "date-time") => true,
        Some("enum") => form == Form::OpenApi,
        _ => false,
    }
}
