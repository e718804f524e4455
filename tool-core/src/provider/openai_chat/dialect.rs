//! OpenAI's strict mode (Structured Outputs' subset of JSON Schema).

use serde_json::{Map, Value};

use crate::schema::dialect::refs::{Inline, inline};
use crate::schema::dialect::strict::{BLOCKERS_WITH_SUBSCHEMAS, close, shared_rules};
use crate::schema::dialect::walk::children;
use crate::schema::dialect::{Unfit, is_object, keep_only, make_nullable, plain, required_names};

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

/// The schema for `"strict": true`, or everything that keeps it from
/// strict mode, in the order met: every object
/// closed (`additionalProperties: false`) with every property required, the
/// optional ones made nullable; `oneOf` as `anyOf`; a `$ref` with a keyword
/// beside it inlined; keywords outside the subset removed and what they said
/// kept in the description.
pub(crate) fn openai_strict(schema: &Value) -> Result<Value, Vec<Unfit>> {
    let mut unfit = Vec::new();
    let mut schema = inline(plain(schema), Inline::WithSiblings, &mut unfit);
    // A root with properties beside its choice is a flattened enum, which
    // closing the object names.
    let root_is_one_object = schema.as_object().is_some_and(|root| {
        let choice = root.contains_key("anyOf") || root.contains_key("oneOf");
        is_object(root) && (!choice || root.contains_key("properties"))
    });
    if !root_is_one_object {
        unfit.push(Unfit::new(
            "",
            "the input is not one object (strict mode needs an object at the root, not a choice)",
        ));
    }
    let mut pass = Strict {
        unfit,
        ..Strict::default()
    };
    pass.node(&mut schema, "", 0);
    pass.limits();
    if pass.unfit.is_empty() {
        Ok(schema)
    } else {
        Err(pass.unfit)
    }
}

#[derive(Default)]
struct Strict {
    properties: usize,
    enum_values: usize,
    name_chars: usize,
    /// What keeps the schema from strict mode, in the order met.
    unfit: Vec<Unfit>,
}

impl Strict {
    fn node(&mut self, node: &mut Value, at: &str, depth: usize) {
        // `true` is `{}` already; `false` closes an `additionalProperties`.
        let Value::Object(map) = node else {
            return;
        };
        if map.len() == 1 && map.contains_key("$ref") {
            return;
        }
        let blocked = self.unfit.len();
        let look_arounds = ["(?=", "(?!", "(?<=", "(?<!"];
        shared_rules(map, at, MODE, &look_arounds, &mut self.unfit);
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
        for keyword in refused.iter().filter(|k| map.contains_key(**k)) {
            self.unfit.push(Unfit::new(
                at,
                format!("`{keyword}` is outside {MODE}'s subset"),
            ));
        }
        if is_object(map) && !self.object(map, at, depth) {
            // Nested too deep: what is below says the same again.
            return;
        }
        let is_array = map.get("type").is_some_and(|t| {
            t == "array"
                || t.as_array()
                    .is_some_and(|ts| ts.iter().any(|t| t == "array"))
        });
        // A tuple's items are its `prefixItems`, named apart.
        let tuple = map.contains_key("prefixItems");
        if is_array && !tuple && !map.get("items").is_some_and(has_type) {
            self.unfit.push(Unfit::new(
                at,
                format!("an array of any JSON values: {MODE} needs its items' type"),
            ));
        } else if !has_type(&Value::Object(map.clone())) {
            self.unfit.push(Unfit::new(
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
        let blocked = self.unfit.len() > blocked;
        keep_only(map, |keyword, value| {
            (KEPT.contains(&keyword)
                && (keyword != "format" || FORMATS.contains(&value.as_str().unwrap_or_default())))
                || (blocked && BLOCKERS_WITH_SUBSCHEMAS.contains(&keyword))
        });
        let properties = format!("{at}/properties/");
        children(map, at, &mut |child, pointer| {
            let deeper = depth + usize::from(pointer.starts_with(&properties));
            self.node(child, pointer, deeper);
        });
    }

    /// Closes an object and requires all of it, the optional properties
    /// made nullable; whether to go on below it (not when it is nested too
    /// deep).
    fn object(&mut self, map: &mut Map<String, Value>, at: &str, depth: usize) -> bool {
        if depth >= MAX_NESTING {
            self.unfit.push(Unfit::new(
                at,
                format!("objects nested more than {MAX_NESTING} deep"),
            ));
            return false;
        }
        close(map, at, MODE, &mut self.unfit);
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
        true
    }

    /// The limits on the whole schema, each one passed added to `unfit`.
    fn limits(&mut self) {
        if self.properties > MAX_PROPERTIES {
            self.unfit.push(Unfit::new(
                "",
                format!("more than {MAX_PROPERTIES} properties in all"),
            ));
        }
        if self.enum_values > MAX_ENUM_VALUES {
            self.unfit.push(Unfit::new(
                "",
                format!("more than {MAX_ENUM_VALUES} enum values in all"),
            ));
        }
        if self.name_chars > MAX_NAME_CHARS {
            self.unfit.push(Unfit::new(
                "",
                format!("more than {MAX_NAME_CHARS} characters of property names and enum values"),
            ));
        }
    }
}

/// Whether a schema says what type its values have (a `oneOf` counts: the
/// pass makes it an `anyOf` when it reaches it, after its parent asked).
fn has_type(schema: &Value) -> bool {
    schema.as_object().is_some_and(|node| {
        ["type", "$ref", "anyOf", "oneOf", "enum", "const"]
            .iter()
            .any(|keyword| node.contains_key(*keyword))
    })
}
