//! OpenAI's strict mode (Structured Outputs' subset of JSON Schema).

use serde_json::{Map, Value};

use super::refs::{Inline, inline};
use super::walk::children;
use super::{
    Unfit, describe, is_object, make_nullable, one_of_as_any_of, plain, required_names,
    take_keywords,
};

/// The string formats strict mode knows.
const FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Keywords strict mode keeps (with `format` checked against [`FORMATS`]).
const KEPT: [&str; 22] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "enum",
    "const",
    "description",
    "title",
    "$ref",
    "$defs",
    "definitions",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
];

/// Keywords that only annotate: dropped without a word.
pub(super) const ANNOTATIONS: [&str; 8] = [
    "$comment",
    "$id",
    "$anchor",
    "$schema",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Strict mode's limits (OpenAI's Structured Outputs guide).
const MAX_PROPERTIES: usize = 5000;
const MAX_NESTING: usize = 10;
const MAX_ENUM_VALUES: usize = 1000;
const MAX_NAME_CHARS: usize = 120_000;

/// The schema for `"strict": true`, or why there is none: every object
/// closed (`additionalProperties: false`) with every property required, the
/// optional ones made nullable; `oneOf` as `anyOf`; a `$ref` with a keyword
/// beside it inlined; keywords outside the subset removed and what they said
/// kept in the description.
pub(crate) fn openai_strict(schema: &Value) -> Result<Value, Unfit> {
    let mut schema = inline(plain(schema), Inline::WithSiblings)?;
    let root = schema
        .as_object()
        .ok_or_else(|| Unfit::new("", "not an object schema"))?;
    if !is_object(root) || root.contains_key("anyOf") || root.contains_key("oneOf") {
        return Err(Unfit::new(
            "",
            "the input is not one object (strict mode needs an object at the root, not a choice)",
        ));
    }
    let mut pass = Strict::default();
    pass.node(&mut schema, "", 0)?;
    pass.limits()?;
    Ok(schema)
}

#[derive(Default)]
struct Strict {
    properties: usize,
    enum_values: usize,
    name_chars: usize,
}

impl Strict {
    fn node(&mut self, node: &mut Value, at: &str, depth: usize) -> Result<(), Unfit> {
        // `true` is `{}` already; `false` closes an `additionalProperties`.
        let Value::Object(map) = node else {
            return Ok(());
        };
        if map.len() == 1 && map.contains_key("$ref") {
            return Ok(());
        }
        one_of_as_any_of(map);
        merge_single_all_of(map, at)?;
        if let Some(Value::Bool(true)) = map.remove("nullable") {
            make_nullable(map);
        }
        for keyword in [
            "not",
            "if",
            "then",
            "else",
            "dependentRequired",
            "dependentSchemas",
        ] {
            if map.contains_key(keyword) {
                return Err(Unfit::new(
                    at,
                    format!("`{keyword}` is outside strict mode's subset"),
                ));
            }
        }
        if map.contains_key("patternProperties") || map.contains_key("propertyNames") {
            return Err(Unfit::new(
                at,
                "a map whose keys follow a pattern: strict mode closes every object",
            ));
        }
        if map.get("unevaluatedProperties") == Some(&Value::Bool(false)) {
            map.remove("unevaluatedProperties");
        }
        if is_object(map) {
            self.object(map, at, depth)?;
        }
        if map.contains_key("prefixItems") {
            return Err(Unfit::new(
                at,
                "a tuple (`prefixItems`) is outside strict mode's subset",
            ));
        }
        let is_array = map.get("type").is_some_and(|t| {
            t == "array"
                || t.as_array()
                    .is_some_and(|ts| ts.iter().any(|t| t == "array"))
        });
        if is_array && !map.get("items").is_some_and(has_type) {
            return Err(Unfit::new(
                at,
                "an array of any JSON values: strict mode needs its items' type",
            ));
        }
        if !has_type(&Value::Object(map.clone())) {
            return Err(Unfit::new(
                at,
                "any JSON value (no `type`): strict mode needs one",
            ));
        }
        if let Some(Value::String(pattern)) = map.get("pattern")
            && ["(?=", "(?!", "(?<=", "(?<!"]
                .iter()
                .any(|look| pattern.contains(look))
        {
            return Err(Unfit::new(
                at,
                "a `pattern` with a look-around, which strict mode refuses",
            ));
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            self.enum_values += values.len();
            self.name_chars += values
                .iter()
                .filter_map(Value::as_str)
                .map(str::len)
                .sum::<usize>();
        }
        if let Some(Value::String(value)) = map.get("const") {
            self.name_chars += value.len();
        }
        let removed = take_keywords(map, |keyword, value| {
            !KEPT.contains(&keyword)
                || (keyword == "format" && !FORMATS.contains(&value.as_str().unwrap_or_default()))
        });
        let said: Vec<(String, Value)> = removed
            .into_iter()
            .filter(|(keyword, value)| said_aloud(keyword, value, map))
            .collect();
        describe(map, &said);
        let mut failed = None;
        children(map, at, &mut |child, pointer| {
            if failed.is_none() {
                let deeper = depth + usize::from(pointer.starts_with(&format!("{at}/properties/")));
                if let Err(error) = self.node(child, pointer, deeper) {
                    failed = Some(error);
                }
            }
        });
        failed.map_or(Ok(()), Err)
    }

    /// Closes an object and requires all of it, the optional properties
    /// made nullable.
    fn object(
        &mut self,
        map: &mut Map<String, Value>,
        at: &str,
        depth: usize,
    ) -> Result<(), Unfit> {
        if depth >= MAX_NESTING {
            return Err(Unfit::new(
                at,
                format!("objects nested more than {MAX_NESTING} deep"),
            ));
        }
        if ["anyOf", "allOf"].iter().any(|k| map.contains_key(*k)) && map.contains_key("properties")
        {
            return Err(Unfit::new(
                at,
                "an object with properties of its own and of a choice (a flattened enum?): strict mode closes every object",
            ));
        }
        match map.get("additionalProperties") {
            None | Some(Value::Bool(false)) => {}
            Some(_) => {
                return Err(Unfit::new(
                    at,
                    "a map (`additionalProperties` is a schema): strict mode closes every object",
                ));
            }
        }
        let required = required_names(map);
        let properties = map
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
        let mut all = Vec::new();
        if let Value::Object(properties) = properties {
            for (name, property) in properties.iter_mut() {
                if !required.contains(name)
                    && let Value::Object(property) = property
                {
                    make_nullable(property);
                }
                self.name_chars += name.len();
                all.push(Value::String(name.clone()));
            }
        }
        self.properties += all.len();
        map.insert("required".into(), Value::Array(all));
        map.insert("additionalProperties".into(), Value::Bool(false));
        Ok(())
    }

    fn limits(&self) -> Result<(), Unfit> {
        if self.properties > MAX_PROPERTIES {
            return Err(Unfit::new(
                "",
                format!("more than {MAX_PROPERTIES} properties in all"),
            ));
        }
        if self.enum_values > MAX_ENUM_VALUES {
            return Err(Unfit::new(
                "",
                format!("more than {MAX_ENUM_VALUES} enum values in all"),
            ));
        }
        if self.name_chars > MAX_NAME_CHARS {
            return Err(Unfit::new(
                "",
                format!("more than {MAX_NAME_CHARS} characters of property names and enum values"),
            ));
        }
        Ok(())
    }
}

/// Merges a one-schema `allOf` into its node; more than one is outside the
/// subset.
pub(super) fn merge_single_all_of(map: &mut Map<String, Value>, at: &str) -> Result<(), Unfit> {
    match map.remove("allOf") {
        None => Ok(()),
        Some(Value::Array(mut all_of)) if all_of.len() == 1 => {
            if let Some(Value::Object(only)) = all_of.pop() {
                for (keyword, value) in only {
                    map.entry(keyword).or_insert(value);
                }
            }
            Ok(())
        }
        Some(_) => Err(Unfit::new(
            at,
            "`allOf` of several schemas is outside strict mode's subset",
        )),
    }
}

/// Whether a schema says what type its values have.
fn has_type(schema: &Value) -> bool {
    schema.as_object().is_some_and(|node| {
        ["type", "$ref", "anyOf", "enum", "const"]
            .iter()
            .any(|keyword| node.contains_key(*keyword))
    })
}

/// Whether a removed keyword said something the model should still read:
/// not an annotation, not a vendor extension, not a number's format (which
/// only restates its Rust type).
pub(super) fn said_aloud(keyword: &str, value: &Value, node: &Map<String, Value>) -> bool {
    if ANNOTATIONS.contains(&keyword) || keyword.starts_with("x-") || keyword == "title" {
        return false;
    }
    // A closed object: the model sends what the properties say anyway.
    if keyword == "additionalProperties" && *value == Value::Bool(false) {
        return false;
    }
    if keyword == "format" {
        let numeric = node.get("type").is_some_and(|t| {
            let is_number = |t: &Value| {
                matches!(
                    t.as_str(),
                    Some("integer" | "number" | "INTEGER" | "NUMBER")
                )
            };
            is_number(t) || t.as_array().is_some_and(|ts| ts.iter().any(is_number))
        });
        return !numeric && value.is_string();
    }
    true
}
