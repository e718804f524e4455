//! OpenAI's strict mode (Structured Outputs' subset of JSON Schema).

use serde_json::{Map, Value};

use super::refs::{Inline, inline};
use super::strict::{close, shared_rules};
use super::walk::try_children;
use super::{Unfit, is_object, keep_only, make_nullable, plain, required_names};

/// The mode, as messages name it.
const MODE: &str = "strict mode";

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
        shared_rules(map, at, MODE, &["(?=", "(?!", "(?<=", "(?<!"])?;
        if let Some(Value::Bool(true)) = map.remove("nullable") {
            make_nullable(map);
        }
        let refused = [
            "not",
            "if",
            "then",
            "else",
            "dependentRequired",
            "dependentSchemas",
        ];
        if let Some(keyword) = refused.iter().find(|k| map.contains_key(**k)) {
            return Err(Unfit::new(
                at,
                format!("`{keyword}` is outside {MODE}'s subset"),
            ));
        }
        if is_object(map) {
            self.object(map, at, depth)?;
        }
        let is_array = map.get("type").is_some_and(|t| {
            t == "array"
                || t.as_array()
                    .is_some_and(|ts| ts.iter().any(|t| t == "array"))
        });
        if is_array && !map.get("items").is_some_and(has_type) {
            return Err(Unfit::new(
                at,
                format!("an array of any JSON values: {MODE} needs its items' type"),
            ));
        }
        if !has_type(&Value::Object(map.clone())) {
            return Err(Unfit::new(
                at,
                format!("any JSON value (no `type`): {MODE} needs one"),
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
        keep_only(map, |keyword, value| {
            KEPT.contains(&keyword)
                && (keyword != "format" || FORMATS.contains(&value.as_str().unwrap_or_default()))
        });
        let properties = format!("{at}/properties/");
        try_children(map, at, &mut |child, pointer| {
            let deeper = depth + usize::from(pointer.starts_with(&properties));
            self.node(child, pointer, deeper)
        })
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
        close(map, at, MODE)?;
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

/// Whether a schema says what type its values have.
fn has_type(schema: &Value) -> bool {
    schema.as_object().is_some_and(|node| {
        ["type", "$ref", "anyOf", "enum", "const"]
            .iter()
            .any(|keyword| node.contains_key(*keyword))
    })
}
