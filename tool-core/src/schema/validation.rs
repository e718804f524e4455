//! Checking arguments against a tool's JSON Schema, and saying what is
//! wrong the way a model can act on.

use std::borrow::Cow;
use std::sync::OnceLock;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{ValidationError, Validator};
use serde_json::Value;

use crate::error::echo::{Echo, MAX_LISTED_PROBLEMS, bound_quoted};
use crate::error::pointer::unescape_key;
use crate::error::tool_error::Violation;

pub(crate) mod meta;

/// A tool's schema as the arguments are checked against it: compiled at
/// the first check, so that a registry of many tools is quick to build and
/// holds no validator for a tool that is never called (a compiled
/// validator is several kilobytes).
pub(crate) struct SchemaCheck {
    compiled: OnceLock<CompiledSchema>,
}

/// The validator, and the root properties, in order, for "expected one of"
/// on an unknown argument.
struct CompiledSchema {
    validator: Validator,
    properties: Vec<String>,
}

impl CompiledSchema {
    fn of(schema: &Value) -> Result<Self, String> {
        // Formats are checked, not only announced: a parameter declared an
        // email or a URI is refused when it is none. Formats the validator
        // does not know (schemars' `uint8`, `double`, ...) restate the
        // type, whose range keywords are checked anyway.
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .should_ignore_unknown_formats(true)
            .build(schema)
            .map_err(|error| error.to_string())?;
        let properties = schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|properties| properties.keys().cloned().collect())
            .unwrap_or_default();
        Ok(Self {
            validator,
            properties,
        })
    }
}

impl SchemaCheck {
    /// Checks that `schema` is a JSON Schema; the complaint if it is not.
    ///
    /// Against the meta-schema, a fifth of the cost of compiling. What that
    /// cannot see, a `pattern` that is no regular expression or a `$ref`
    /// that leads nowhere, fails only compiling: a schema with either is
    /// compiled now, so that every schema the registry takes compiles.
    ///
    /// A schema read as surely passing the meta-schema (`meta.rs`; what
    /// schemars derives is) is not given to `jsonschema` here: a process
    /// that registers tools then neither builds the meta-schema's
    /// validator nor runs the validator's code until a call is checked.
    /// Any other schema is, and is refused in its words.
    pub(crate) fn new(schema: &Value) -> Result<Self, String> {
        if !meta::surely_valid(schema) {
            jsonschema::meta::validate(schema).map_err(|error| error.to_string())?;
        }
        let check = Self {
            compiled: OnceLock::new(),
        };
        if compiles_only_when_tried(schema, schema) {
            let compiled = CompiledSchema::of(schema)?;
            let _ = check.compiled.set(compiled);
        }
        Ok(check)
    }

    /// Every violation of `schema` (the one given to [`SchemaCheck::new`])
    /// in `instance`, in document order; empty if it is valid.
    pub(crate) fn check(&self, schema: &Value, instance: &Value) -> Vec<Violation> {
        let Some(compiled) = self.compiled(schema) else {
            return Vec::new();
        };
        let validator = &compiled.validator;
        if validator.is_valid(instance) {
            return Vec::new();
        }
        let mut violations = Vec::new();
        // Keys a `false` schema refuses at the top (a tool without
        // parameters), said once, as unknown arguments are.
        let mut refused = false;
        for error in validator.iter_errors(instance) {
            let top = error.instance_path().as_str().is_empty()
                || top_level_key(error.instance_path().as_str()).is_some();
            // The validator reports `additionalProperties: false` with no
            // `properties` once per key, at the object's path or the key's.
            if matches!(error.kind(), ValidationErrorKind::FalseSchema)
                && top
                && error.schema_path().as_str() == "/additionalProperties"
            {
                refused = true;
            } else {
                compiled.describe(&error, &mut violations);
            }
        }
        if refused && let Some(object) = instance.as_object() {
            let unknown: Vec<String> = object
                .keys()
                .filter(|key| !compiled.properties.contains(key))
                .cloned()
                .collect();
            violations.push(compiled.unknown_arguments(&unknown));
        }
        // The arguments' order: the whole first, then each property as the
        // schema lists it.
        let rank = |violation: &Violation| match violation.argument() {
            None => (0, usize::MAX),
            Some(argument) => (
                1,
                compiled
                    .properties
                    .iter()
                    .position(|p| *p == argument)
                    .unwrap_or(usize::MAX),
            ),
        };
        violations.sort_by(|a, b| {
            rank(a)
                .cmp(&rank(b))
                .then_with(|| a.pointer.cmp(&b.pointer))
        });
        violations.dedup();
        violations
    }

    /// The compiled schema. `None` only if a schema that passed the
    /// meta-schema, with no pattern and every reference found, still does
    /// not compile: said once as an error, and the arguments then go
    /// unchecked here (deserialization still checks their types).
    fn compiled(&self, schema: &Value) -> Option<&CompiledSchema> {
        if let Some(compiled) = self.compiled.get() {
            return Some(compiled);
        }
        match CompiledSchema::of(schema) {
            Ok(compiled) => Some(self.compiled.get_or_init(|| compiled)),
            Err(error) => {
                tracing::error!(%error, "a tool's schema did not compile; its arguments are not validated");
                None
            }
        }
    }
}

/// Whether `schema`, within `root`, has what only compiling checks: a
/// `pattern` or `patternProperties` (regular expressions), or a reference
/// that is not a JSON pointer into `root` that leads somewhere.
fn compiles_only_when_tried(schema: &Value, root: &Value) -> bool {
    match schema {
        Value::Object(object) => object.iter().any(|(key, value)| match key.as_str() {
            "pattern" | "patternProperties" | "$dynamicRef" | "$recursiveRef" | "$id" => true,
            "$ref" => !value
                .as_str()
                .and_then(|reference| reference.strip_prefix('#'))
                .is_some_and(|pointer| !pointer.contains('%') && root.pointer(pointer).is_some()),
            // Names, values and texts are no schemas.
            "properties" | "$defs" | "definitions" | "dependentSchemas" => value
                .as_object()
                .is_some_and(|schemas| schemas.values().any(|s| compiles_only_when_tried(s, root))),
            "enum" | "const" | "default" | "examples" | "description" | "title" => false,
            _ => compiles_only_when_tried(value, root),
        }),
        Value::Array(items) => items
            .iter()
            .any(|item| compiles_only_when_tried(item, root)),
        _ => false,
    }
}

impl CompiledSchema {
    fn describe(&self, error: &ValidationError<'_>, out: &mut Vec<Violation>) {
        let pointer = error.instance_path().as_str().to_owned();
        let value = error.instance();
        let message = match error.kind() {
            ValidationErrorKind::Required { property } => {
                let property = property
                    .as_str()
                    .map_or_else(|| property.to_string(), str::to_owned);
                if pointer.is_empty() {
                    format!("missing argument `{property}`")
                } else {
                    format!("missing field `{property}`")
                }
            }
            ValidationErrorKind::AdditionalProperties { unexpected }
            | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
                if pointer.is_empty() {
                    out.push(self.unknown_arguments(unexpected));
                    return;
                }
                let noun = if unexpected.len() == 1 { "" } else { "s" };
                format!("unknown field{noun} {}", echoed_names(unexpected))
            }
            ValidationErrorKind::AnyOf { context }
            | ValidationErrorKind::OneOfNotValid { context } => {
                match self.describe_choice(error, context, out) {
                    Some(message) => message,
                    None => return,
                }
            }
            ValidationErrorKind::Enum { options } => {
                let options = options.as_array().map(Vec::as_slice).unwrap_or_default();
                let options = backticked(options.iter().filter(|o| !o.is_null()).map(plain));
                format!("expected one of {options}, got {}", got(value))
            }
            ValidationErrorKind::Constant { expected_value } => {
                format!("expected `{}`, got {}", plain(expected_value), got(value))
            }
            ValidationErrorKind::Type { kind } => {
                format!("expected {}, got {}", type_names(kind), typed(value))
            }
            ValidationErrorKind::FalseSchema => "no value is allowed here".to_owned(),
            kind => constraint_message(kind, value)
                // The validator's own words can hold the value whole.
                .unwrap_or_else(|| Echo(&error.to_string()).to_string()),
        };
        out.push(Violation::new(pointer, message));
    }

    /// A value that matches none of a choice's branches. An `Option<T>` is
    /// `anyOf: [T, null]`: what is wrong against `T` is described in `out`
    /// (and `None` returned), not that the value is not null either.
    /// Otherwise, the message.
    fn describe_choice(
        &self,
        error: &ValidationError<'_>,
        context: &[Vec<ValidationError<'static>>],
        out: &mut Vec<Violation>,
    ) -> Option<String> {
        let value = error.instance();
        let branches: Vec<&Vec<ValidationError<'static>>> = context
            .iter()
            .filter(|branch| !branch.iter().all(is_not_null))
            .collect();
        if let [branch] = branches[..] {
            for error in branch {
                self.describe(error, out);
            }
            return None;
        }
        Some(
            match allowed_values(&branches, error.instance_path().as_str()) {
                // A unit enum with documented variants: a `const` each.
                Some(values) => {
                    let values = backticked(values.iter().map(|v| plain(v)));
                    format!("expected one of {values}, got {}", got(value))
                }
                None => format!("{} matches none of the allowed forms", got(value)),
            },
        )
    }

    /// Top-level keys the schema does not know.
    fn unknown_arguments(&self, keys: &[String]) -> Violation {
        let names = echoed_names(keys);
        let noun = if keys.len() == 1 { "" } else { "s" };
        let message = if self.properties.is_empty() {
            format!("unknown argument{noun} {names}; this tool takes none")
        } else {
            let expected = backticked(self.properties.iter().map(String::as_str));
            format!("unknown argument{noun} {names}; expected one of {expected}")
        };
        Violation::new("", message)
    }
}

/// What breaks a constraint on a number, a string (its length, pattern or
/// format), a list or an object (its size); `None` for any other error.
fn constraint_message(kind: &ValidationErrorKind, value: &Value) -> Option<String> {
    let message = match kind {
        ValidationErrorKind::Minimum { limit } => {
            format!("must be at least {limit}, got {value}")
        }
        ValidationErrorKind::Maximum { limit } => {
            format!("must be at most {limit}, got {value}")
        }
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            format!("must be greater than {limit}, got {value}")
        }
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            format!("must be less than {limit}, got {value}")
        }
        ValidationErrorKind::MultipleOf { .. } => {
            format!("{} is not an allowed step", got(value))
        }
        ValidationErrorKind::MinLength { limit } => {
            format!(
                "must be at least {limit} characters long, got {}",
                got(value)
            )
        }
        ValidationErrorKind::MaxLength { limit } => {
            format!(
                "must be at most {limit} characters long, got {}",
                got(value)
            )
        }
        ValidationErrorKind::Pattern { pattern } => {
            format!("must match the pattern `{pattern}`, got {}", got(value))
        }
        ValidationErrorKind::Format { format } => {
            format!("must be a valid {format}, got {}", got(value))
        }
        ValidationErrorKind::MinItems { limit } => {
            format!("must have at least {limit} items, got {}", len(value))
        }
        ValidationErrorKind::MaxItems { limit } => {
            format!("must have at most {limit} items, got {}", len(value))
        }
        ValidationErrorKind::UniqueItems => "must not repeat items".to_owned(),
        ValidationErrorKind::MinProperties { limit } => {
            format!("must have at least {limit} fields")
        }
        ValidationErrorKind::MaxProperties { limit } => {
            format!("must have at most {limit} fields")
        }
        _ => return None,
    };
    Some(message)
}

/// The last step of a pointer, unescaped: `city` for `/address/city`.
fn last_key(pointer: &str) -> Option<String> {
    let (_, step) = pointer.rsplit_once('/')?;
    Some(unescape_key(step).into_owned())
}

/// The key of a pointer one step deep: `city` for `/city`.
fn top_level_key(pointer: &str) -> Option<String> {
    let step = pointer.strip_prefix('/')?;
    (!step.contains('/')).then(|| unescape_key(step).into_owned())
}

/// A branch that failed only because the value is not `null`.
fn is_not_null(error: &ValidationError<'_>) -> bool {
    match error.kind() {
        ValidationErrorKind::Type {
            kind: TypeKind::Single(t),
        } => t.as_str() == "null",
        ValidationErrorKind::Constant { expected_value } => expected_value.is_null(),
        _ => false,
    }
}

/// The values a choice allows, when each of its branches is a fixed value
/// or a list of them (`oneOf: [{"const": "red", "description": ..}, ..]`,
/// what schemars writes for a unit enum whose variants are documented, or
/// a mix of `const`s and an `enum`) and failed only for not being one:
/// its errors are all on the value itself (`at`), a `const` or an `enum`
/// among them. `null` is left out, as an `Option`'s "absent".
fn allowed_values<'e>(
    branches: &[&'e Vec<ValidationError<'static>>],
    at: &str,
) -> Option<Vec<&'e Value>> {
    let mut values: Vec<&Value> = Vec::new();
    for branch in branches {
        let mut fixed = false;
        for error in branch.iter() {
            if error.instance_path().as_str() != at {
                return None;
            }
            match error.kind() {
                ValidationErrorKind::Constant { expected_value } => {
                    fixed = true;
                    values.push(expected_value);
                }
                ValidationErrorKind::Enum { options } => {
                    fixed = true;
                    values.extend(options.as_array()?.iter());
                }
                // A `const` beside its `type`: a value of another type
                // fails both.
                ValidationErrorKind::Type { .. } => {}
                _ => return None,
            }
        }
        if !fixed {
            return None;
        }
    }
    let mut allowed: Vec<&Value> = Vec::new();
    for value in values {
        if !value.is_null() && !allowed.contains(&value) {
            allowed.push(value);
        }
    }
    (!allowed.is_empty()).then_some(allowed)
}

fn type_names(kind: &TypeKind) -> String {
    let names: Vec<&str> = match kind {
        TypeKind::Single(t) => vec![t.as_str()],
        TypeKind::Multiple(set) => set.iter().map(|t| t.as_str()).collect(),
    };
    // `null` last: "a string or null" reads as an optional string.
    let (nulls, mut names): (Vec<&str>, Vec<&str>) =
        names.into_iter().partition(|name| *name == "null");
    names.extend(nulls);
    let names: Vec<String> = names.into_iter().map(article).collect();
    names.join(" or ")
}

fn article(name: &str) -> String {
    match name {
        "null" => "null".to_owned(),
        "integer" | "object" | "array" => format!("an {name}"),
        other => format!("a {other}"),
    }
}

/// A JSON value as the model wrote it, shortened: strings without quotes.
fn plain(value: &Value) -> String {
    let text = match value {
        Value::String(text) => Cow::Borrowed(text.as_str()),
        other => Cow::Owned(other.to_string()),
    };
    Echo(&text).to_string()
}

fn got(value: &Value) -> String {
    format!("`{}`", plain(value))
}

/// `an integer `42``, `a string `x``.
fn typed(value: &Value) -> String {
    let kind = match value {
        Value::Null => return "null".to_owned(),
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    format!("{kind} {}", got(value))
}

fn len(value: &Value) -> usize {
    value.as_array().map_or(0, Vec::len)
}

fn backticked<'a>(names: impl Iterator<Item = impl AsRef<str> + 'a>) -> String {
    let names: Vec<String> = names.map(|name| format!("`{}`", name.as_ref())).collect();
    names.join(", ")
}

/// The model's own names, each an [`Echo`], at most
/// [`MAX_LISTED_PROBLEMS`] of them: `` `a`, `b` and 3 more ``.
fn echoed_names(names: &[String]) -> String {
    let listed = names
        .iter()
        .take(MAX_LISTED_PROBLEMS)
        .map(|name| format!("`{}`", Echo(name)))
        .collect::<Vec<_>>()
        .join(", ");
    match names.len().saturating_sub(MAX_LISTED_PROBLEMS) {
        0 => listed,
        more => format!("{listed} and {more} more"),
    }
}

/// A deserializer's complaint in the same words: serde says "field", a
/// model calls them arguments.
pub(crate) fn from_serde(pointer: String, message: String) -> Violation {
    // serde_path_to_error puts an unknown field in the path: `/town` for a
    // top-level `town`. It is a problem of the arguments as a whole.
    let top_level_unknown = top_level_key(&pointer)
        .is_some_and(|key| message.starts_with(&format!("unknown field `{key}`")));
    // What the deserializer repeats of the arguments, bounded: the key it
    // failed at first (it may hold the quotes themselves), then the rest.
    let message = match last_key(&pointer) {
        Some(key) => message.replacen(&format!("`{key}`"), &format!("`{}`", Echo(&key)), 1),
        None => message,
    };
    let message = bound_quoted(&message);
    let pointer = if top_level_unknown {
        String::new()
    } else {
        pointer
    };
    let message = if pointer.is_empty() {
        message
            .replacen("missing field", "missing argument", 1)
            .replacen("unknown field", "unknown argument", 1)
    } else {
        message
    };
    Violation::new(pointer, message)
}

#[cfg(test)]
mod enum_tests;

#[cfg(test)]
mod meta_tests;

#[cfg(test)]
mod tests;
