//! A type's JSON Schema as MCP elicitation asks for it: the
//! `requestedSchema` of `elicitation/create`, a flat object whose
//! properties are each a string, a number, an integer, a boolean or a
//! choice (MCP 2025-11-25, "Elicitation", "Requested Schema").
//!
//! schemars writes what MCP cannot read: enums as `$ref`s into `$defs`,
//! `Option`s as `anyOf` with `null`, a documented enum as `oneOf` of
//! `const`s. [`requested_schema`] inlines and rewrites those into the shapes
//! MCP names, key for key in the order rmcp writes them, and refuses,
//! naming the property, what no form can show. Constraints a form cannot
//! show (a `pattern`, a `format` MCP does not list, `uniqueItems`) are
//! dropped here: the answer is checked against the full schema.

use serde_json::{Map, Value};

use crate::error::pointer::push_key;

/// The formats MCP lets a string property carry.
const FORMATS: &[&str] = &["email", "uri", "date", "date-time"];

/// How many `$ref`s one property may go through before it is taken for a
/// type that refers back to itself.
const MAX_REFS: usize = 16;

/// Why a schema cannot be asked of a person, naming the property at fault
/// (none when the schema as a whole is not an object of properties).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NotFlat {
    /// The property, as the person's answer would name it.
    property: Option<String>,
    /// Where in the full schema: `/properties/tags`.
    pointer: String,
    /// What it is, and what MCP takes instead.
    reason: String,
}

impl NotFlat {
    fn root(reason: impl Into<String>) -> Self {
        Self {
            property: None,
            pointer: String::new(),
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for NotFlat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.property {
            Some(property) => write!(
                f,
                "property `{property}` at `{}`: {}",
                self.pointer, self.reason
            ),
            None => f.write_str(&self.reason),
        }
    }
}

impl std::error::Error for NotFlat {}

/// The `requestedSchema` of `full`, a type's schema as
/// [`input_schema_for`](super::input_schema_for) gives it (2020-12,
/// properties in field order, definitions in `$defs`).
///
/// The root keeps only `type`, `properties` and `required` (its title,
/// description and `$schema` are dropped: the question's message is the
/// prompt). Each property becomes one of MCP's primitive schemas; see the
/// table in the module's tests.
pub(crate) fn requested_schema(full: &Value) -> Result<Value, NotFlat> {
    let Some(root) = full.as_object() else {
        return Err(NotFlat::root(format!(
            "its schema is {}, not an object's; MCP elicitation asks for an object whose properties are each a string, number, integer, boolean or choice",
            describe_value(full)
        )));
    };
    match root.get("type").and_then(Value::as_str) {
        Some("object") => {}
        _ => {
            return Err(NotFlat::root(format!(
                "its schema is of {}, not of an object; MCP elicitation asks for an object whose properties are each a string, number, integer, boolean or choice",
                kind_of(root)
            )));
        }
    }
    // Any of these at the root would make properties come and go with the
    // answer (an enum flattened in, say): a form lists them all up front.
    for key in [
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "$ref",
        "patternProperties",
        "dependentSchemas",
        "propertyNames",
    ] {
        if root.contains_key(key) {
            return Err(NotFlat::root(format!(
                "its schema has `{key}` at its root (a flattened enum, say); MCP elicitation asks for an object whose properties are all listed"
            )));
        }
    }
    for key in ["additionalProperties", "unevaluatedProperties"] {
        if root.get(key).is_some_and(|value| !value.is_boolean()) {
            return Err(NotFlat::root(format!(
                "its schema takes properties besides those it lists (`{key}`: a flattened map, say); MCP elicitation asks only for listed properties"
            )));
        }
    }
    let defs = root.get("$defs").and_then(Value::as_object);
    let mut properties = Map::new();
    if let Some(listed) = root.get("properties").and_then(Value::as_object) {
        for (name, schema) in listed {
            let property = field(schema, defs).map_err(|reason| {
                let mut pointer = String::from("/properties");
                push_key(&mut pointer, name);
                NotFlat {
                    property: Some(name.clone()),
                    pointer,
                    reason,
                }
            })?;
            properties.insert(name.clone(), property);
        }
    }
    let required: Vec<Value> = root
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|name| name.as_str().is_some_and(|n| properties.contains_key(n)))
        .cloned()
        .collect();
    let mut out = Map::new();
    out.insert("type".into(), "object".into());
    out.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        out.insert("required".into(), Value::Array(required));
    }
    Ok(Value::Object(out))
}

/// One property's schema as MCP's primitive schema, or why it cannot be.
fn field(schema: &Value, defs: Option<&Map<String, Value>>) -> Result<Value, String> {
    let map = resolve(schema, defs)?;
    let map = without_null(map, defs)?;
    if let Some(choices) = choices(&map, defs)? {
        let mut out = heading("string", &map);
        let key = if choices.titled { "oneOf" } else { "enum" };
        out.insert(key.into(), choices.to_value());
        // The titles of MCP 2025-06-18's form, written by hand beside the
        // values (`#[schemars(extend("enumNames" = [..]))]`): kept, for
        // the clients that read no other.
        if let (false, Some(Value::Array(names)), Some(Value::Array(values))) =
            (choices.titled, map.get("enumNames"), out.get("enum"))
            && names.len() == values.len()
            && names.iter().all(Value::is_string)
        {
            out.insert("enumNames".into(), Value::Array(names.clone()));
        }
        if let Some(default) = map.get("default").filter(|d| choices.has(d)) {
            out.insert("default".into(), default.clone());
        }
        return Ok(Value::Object(out));
    }
    match map.get("type").and_then(Value::as_str) {
        Some("string") => Ok(string(&map)),
        Some(kind @ ("integer" | "number")) => Ok(number(kind, &map)),
        Some("boolean") => {
            let mut out = heading("boolean", &map);
            copy_if(&mut out, &map, "default", Value::is_boolean);
            Ok(Value::Object(out))
        }
        Some("array") => array(&map, defs),
        _ => Err(not_a_field(&map)),
    }
}

/// `{"$ref": ...}` replaced by the definition it points to, the keys
/// beside it (a field's description, its default) kept over the
/// definition's own.
fn resolve(
    schema: &Value,
    defs: Option<&Map<String, Value>>,
) -> Result<Map<String, Value>, String> {
    let Some(mut map) = schema.as_object().cloned() else {
        return Err(format!(
            "{}; MCP elicitation takes a string, number, integer, boolean or choice",
            describe_value(schema)
        ));
    };
    for _ in 0..MAX_REFS {
        let Some(reference) = map.remove("$ref") else {
            return Ok(map);
        };
        let target = reference
            .as_str()
            .and_then(|r| r.strip_prefix("#/$defs/"))
            .and_then(|name| defs?.get(name))
            .and_then(Value::as_object);
        let Some(target) = target else {
            return Err(format!(
                "its `$ref` {reference} points at no definition in `$defs`"
            ));
        };
        let mut merged = target.clone();
        merged.extend(map);
        map = merged;
    }
    Err("its type refers back to itself; MCP elicitation takes a string, number, integer, boolean or choice".into())
}

/// An `Option`'s schema as the schema of what it holds: `type: [T, "null"]`
/// as `type: T`, `anyOf: [S, {type: null}]` as `S` (the keys beside the
/// `anyOf` kept over `S`'s). The property is then optional by not being
/// `required`, which schemars already says.
fn without_null(
    mut map: Map<String, Value>,
    defs: Option<&Map<String, Value>>,
) -> Result<Map<String, Value>, String> {
    if let Some(Value::Array(types)) = map.get("type") {
        let types: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        match types.as_slice() {
            [single] => {
                map.insert("type".into(), single.clone());
            }
            [] => return Err(not_a_field(&map)),
            _ => {
                map.insert("type".into(), Value::Array(types));
            }
        }
    }
    let Some(Value::Array(any_of)) = map.get("anyOf") else {
        return Ok(map);
    };
    let inner = match any_of.as_slice() {
        [inner, null] | [null, inner] if is_null(null) && !is_null(inner) => inner.clone(),
        _ => return Ok(map),
    };
    let mut inner = without_null(resolve(&inner, defs)?, defs)?;
    map.remove("anyOf");
    inner.extend(map);
    Ok(inner)
}

fn is_null(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
        && schema.as_object().is_some_and(|m| m.len() == 1)
}

/// The values of a choice, each with its title when the enum's variants
/// carry titles or docs.
struct Choices {
    options: Vec<(String, String)>,
    /// Written `oneOf`/`anyOf` of `{const, title}`; otherwise a plain
    /// `enum`.
    titled: bool,
}

impl Choices {
    /// `["a", "b"]`, or `[{"const": "a", "title": "A"}, ...]`.
    fn to_value(&self) -> Value {
        self.options
            .iter()
            .map(|(value, title)| {
                if self.titled {
                    let mut option = Map::new();
                    option.insert("const".into(), value.as_str().into());
                    option.insert("title".into(), title.as_str().into());
                    Value::Object(option)
                } else {
                    value.as_str().into()
                }
            })
            .collect()
    }

    fn has(&self, value: &Value) -> bool {
        value
            .as_str()
            .is_some_and(|v| self.options.iter().any(|(option, _)| option == v))
    }
}

/// The choices `map` offers: an `enum` of strings (an enum of unit
/// variants without docs), or `oneOf` alternatives each a `const` or an
/// `enum` (with docs: schemars groups the undocumented variants in one
/// `enum`). `None` when `map` is no choice.
fn choices(
    map: &Map<String, Value>,
    defs: Option<&Map<String, Value>>,
) -> Result<Option<Choices>, String> {
    if let Some(values) = map.get("enum") {
        let options = untitled(values)?;
        return Ok(Some(Choices {
            options,
            titled: false,
        }));
    }
    let Some(alternatives) = map
        .get("oneOf")
        .or_else(|| map.get("anyOf"))
        .and_then(Value::as_array)
    else {
        return Ok(None);
    };
    let mut options = Vec::new();
    for alternative in alternatives {
        let alternative = resolve(alternative, defs)?;
        if let Some(values) = alternative.get("enum") {
            options.extend(untitled(values)?);
        } else if let Some(value) = alternative.get("const") {
            let Some(value) = value.as_str() else {
                return Err(non_string_choice());
            };
            options.push((value.to_owned(), title(&alternative, value)));
        } else {
            return Ok(None);
        }
    }
    Ok(Some(Choices {
        options,
        titled: true,
    }))
}

/// The values of an `enum`, each its own title.
fn untitled(values: &Value) -> Result<Vec<(String, String)>, String> {
    values
        .as_array()
        .into_iter()
        .flatten()
        .map(|value| match value.as_str() {
            Some(value) => Ok((value.to_owned(), value.to_owned())),
            None => Err(non_string_choice()),
        })
        .collect()
}

fn non_string_choice() -> String {
    "a choice whose values are not all strings; MCP elicitation takes choices of strings (an enum of unit variants)".into()
}

/// A variant's title: its `title`, else the first line of its doc, else
/// its value.
fn title(alternative: &Map<String, Value>, value: &str) -> String {
    let text = |key| {
        alternative
            .get(key)
            .and_then(Value::as_str)
            .and_then(|text| text.lines().next())
            .map(str::trim)
            .filter(|line| !line.is_empty())
    };
    text("title")
        .or_else(|| text("description"))
        .unwrap_or(value)
        .to_owned()
}

/// `type`, then the property's `title` and `description`: the first keys
/// of every MCP primitive schema.
fn heading(kind: &str, map: &Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("type".into(), kind.into());
    copy_if(&mut out, map, "title", Value::is_string);
    copy_if(&mut out, map, "description", Value::is_string);
    out
}

fn copy_if(
    out: &mut Map<String, Value>,
    map: &Map<String, Value>,
    key: &str,
    fits: impl Fn(&Value) -> bool,
) {
    if let Some(value) = map.get(key).filter(|value| fits(value)) {
        out.insert(key.into(), value.clone());
    }
}

/// A string: its length bounds, and its `format` when MCP lists it.
fn string(map: &Map<String, Value>) -> Value {
    let mut out = heading("string", map);
    copy_if(&mut out, map, "minLength", is_u32);
    copy_if(&mut out, map, "maxLength", is_u32);
    copy_if(&mut out, map, "format", |format| {
        format.as_str().is_some_and(|f| FORMATS.contains(&f))
    });
    copy_if(&mut out, map, "default", Value::is_string);
    Value::Object(out)
}

fn is_u32(value: &Value) -> bool {
    value.as_u64().is_some_and(|n| u32::try_from(n).is_ok())
}

/// An integer or a number: its range. schemars' `format` (`uint32`,
/// `double`) is not MCP's and goes; an integer's bounds must be whole and
/// fit an `i64`, as MCP's integer schema reads them.
fn number(kind: &str, map: &Map<String, Value>) -> Value {
    let fits: fn(&Value) -> bool = if kind == "integer" {
        |value| value.as_i64().is_some()
    } else {
        Value::is_number
    };
    let mut out = heading(kind, map);
    copy_if(&mut out, map, "minimum", fits);
    copy_if(&mut out, map, "maximum", fits);
    copy_if(&mut out, map, "default", fits);
    Value::Object(out)
}

/// An array of choices, several of which the person picks.
fn array(map: &Map<String, Value>, defs: Option<&Map<String, Value>>) -> Result<Value, String> {
    let items = match map.get("items") {
        Some(items @ Value::Object(_)) => without_null(resolve(items, defs)?, defs)?,
        _ => {
            return Err(
                "an array of any values; MCP elicitation takes an array only of choices (an enum)"
                    .into(),
            );
        }
    };
    let Some(choices) = choices(&items, defs)? else {
        return Err(format!(
            "an array of {}; MCP elicitation takes an array only of choices (an enum)",
            plural(&items)
        ));
    };
    let mut out = heading("array", map);
    copy_if(&mut out, map, "minItems", Value::is_u64);
    copy_if(&mut out, map, "maxItems", Value::is_u64);
    let mut listed = Map::new();
    if choices.titled {
        listed.insert("anyOf".into(), choices.to_value());
    } else {
        listed.insert("type".into(), "string".into());
        listed.insert("enum".into(), choices.to_value());
    }
    out.insert("items".into(), Value::Object(listed));
    copy_if(&mut out, map, "default", |default| {
        default
            .as_array()
            .is_some_and(|values| values.iter().all(|value| choices.has(value)))
    });
    Ok(Value::Object(out))
}

/// Why a property that is no string, number, integer, boolean, choice or
/// array of choices is refused.
fn not_a_field(map: &Map<String, Value>) -> String {
    match map.get("type") {
        Some(Value::String(kind)) if kind == "object" => "an object (a nested struct); MCP elicitation takes strings, numbers, integers, booleans and choices, so make its fields the question's own (`#[serde(flatten)]`)".into(),
        Some(Value::String(kind)) if kind == "null" => "always `null`; MCP elicitation takes a string, number, integer, boolean or choice".into(),
        Some(Value::Array(kinds)) => {
            let kinds: Vec<String> = kinds.iter().map(|k| format!("`{}`", k.as_str().unwrap_or("?"))).collect();
            format!("a value of several types ({}); MCP elicitation takes one type per property", kinds.join(", "))
        }
        _ => match ["oneOf", "anyOf", "allOf", "not", "if"].into_iter().find(|key| map.contains_key(*key)) {
            Some(key) => format!("a combination of schemas (`{key}`: an enum with data, say); MCP elicitation takes a string, number, integer, boolean or choice"),
            None => "any JSON value; MCP elicitation takes a string, number, integer, boolean or choice".into(),
        },
    }
}

/// What an array holds, for the reason it is refused: `strings`.
fn plural(items: &Map<String, Value>) -> String {
    match items.get("type") {
        Some(Value::String(kind)) => match kind.as_str() {
            "string" => "strings".into(),
            "integer" => "integers".into(),
            "number" => "numbers".into(),
            "boolean" => "booleans".into(),
            "object" => "objects".into(),
            "array" => "arrays".into(),
            other => format!("`{other}` values"),
        },
        Some(Value::Array(_)) => "values of several types".into(),
        _ => "any values".into(),
    }
}

/// What a schema that is not an object is, `type` aside.
fn kind_of(map: &Map<String, Value>) -> String {
    match map.get("type") {
        Some(Value::String(kind)) => format!("type `{kind}`"),
        Some(other) => format!("type {other}"),
        None => "no type".into(),
    }
}

fn describe_value(value: &Value) -> String {
    match value {
        Value::Bool(true) => "`true` (any value)".into(),
        Value::Bool(false) => "`false` (no value)".into(),
        other => format!("`{other}`"),
    }
}

#[cfg(all(test, feature = "schemars"))]
pub(crate) mod tests;
