//! Whether a schema surely passes the JSON Schema 2020-12 meta-schema,
//! read without the validator.
//!
//! Checking against the meta-schema with `jsonschema` first builds the
//! meta-schema's own validator (milliseconds, once per process) and runs
//! code that makes up most of what a registering process holds resident.
//! The schemas tools have, schemars' above all, use a few keywords whose
//! values are easy to read: a schema where each is as the meta-schema
//! wants it is accepted here, without `jsonschema`. Anything else (a value
//! of another shape, a keyword read here only loosely, another draft) is
//! left to `jsonschema::meta::validate`, which then says what is wrong in
//! its own words. So this answers `true` only where the meta-schema
//! accepts, and never refuses anything itself.

use serde_json::Value;

/// The draft schemars writes in `$schema`, and the one `jsonschema` takes
/// for a schema that names none.
const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// Deeper than this, the validator decides (and this stays off the stack).
const MAX_DEPTH: usize = 64;

/// Whether `schema` passes the 2020-12 meta-schema, read here; `false`
/// when it may not, or when this cannot tell.
pub(super) fn surely_valid(schema: &Value) -> bool {
    match schema {
        Value::Object(object) => {
            // `$schema` at the root chooses the meta-schema: only 2020-12's
            // is read here.
            let draft = object
                .get("$schema")
                .is_none_or(|uri| uri.as_str() == Some(DRAFT_2020_12));
            draft
                && object
                    .iter()
                    .filter(|(key, _)| *key != "$schema")
                    .all(|(key, value)| keyword(key, value, 0))
        }
        other => subschema(other, 0),
    }
}

/// A schema in a place the meta-schema wants one: an object or a boolean.
fn subschema(schema: &Value, depth: usize) -> bool {
    match schema {
        Value::Bool(_) => true,
        Value::Object(object) if depth < MAX_DEPTH => object
            .iter()
            .all(|(key, value)| keyword(key, value, depth + 1)),
        _ => false,
    }
}

/// Whether one keyword's value is as the meta-schema wants it.
fn keyword(key: &str, value: &Value, depth: usize) -> bool {
    match key {
        // A schema.
        "items"
        | "contains"
        | "additionalProperties"
        | "propertyNames"
        | "if"
        | "then"
        | "else"
        | "not"
        | "unevaluatedItems"
        | "unevaluatedProperties"
        | "contentSchema" => subschema(value, depth),
        // Names to schemas (`patternProperties`' names are regular
        // expressions only by format, which the meta-schema does not check).
        "properties" | "patternProperties" | "dependentSchemas" | "$defs" | "definitions" => value
            .as_object()
            .is_some_and(|schemas| schemas.values().all(|schema| subschema(schema, depth))),
        // At least one schema.
        "prefixItems" | "allOf" | "anyOf" | "oneOf" => value.as_array().is_some_and(|schemas| {
            !schemas.is_empty() && schemas.iter().all(|schema| subschema(schema, depth))
        }),
        // Texts; `$ref` and `pattern` too, whose formats (a URI reference,
        // a regular expression) the meta-schema announces but does not
        // check.
        "title" | "description" | "$comment" | "format" | "contentEncoding"
        | "contentMediaType" | "$ref" | "pattern" => value.is_string(),
        "deprecated" | "readOnly" | "writeOnly" | "uniqueItems" => value.is_boolean(),
        "enum" | "examples" => value.is_array(),
        "const" | "default" => true,
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => value.is_number(),
        "multipleOf" => value.as_f64().is_some_and(|step| step > 0.0),
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minContains" | "maxContains"
        | "minProperties" | "maxProperties" => value.is_u64(),
        "required" => names(value),
        "dependentRequired" => value
            .as_object()
            .is_some_and(|required| required.values().all(names)),
        "dependencies" => value.as_object().is_some_and(|dependencies| {
            dependencies
                .values()
                .all(|value| names(value) || subschema(value, depth))
        }),
        "type" => types(value),
        // Identifiers, anchors, vocabularies and a nested `$schema`: the
        // meta-schema reads them by pattern or switches drafts on them;
        // the validator decides.
        "$schema" | "$id" | "$anchor" | "$dynamicAnchor" | "$dynamicRef" | "$vocabulary"
        | "$recursiveRef" | "$recursiveAnchor" => false,
        // A keyword of no vocabulary: the meta-schema takes any value.
        _ => true,
    }
}

/// Distinct texts: `required`'s property names.
fn names(value: &Value) -> bool {
    value.as_array().is_some_and(|names| {
        names
            .iter()
            .enumerate()
            .all(|(at, name)| name.is_string() && !names[..at].contains(name))
    })
}

/// A type's name, or a list of distinct ones, at least one.
fn types(value: &Value) -> bool {
    const TYPES: [&str; 7] = [
        "array", "boolean", "integer", "null", "number", "object", "string",
    ];
    let known = |name: &Value| name.as_str().is_some_and(|name| TYPES.contains(&name));
    match value {
        Value::Array(names) => {
            !names.is_empty()
                && names
                    .iter()
                    .enumerate()
                    .all(|(at, name)| known(name) && !names[..at].contains(name))
        }
        name => known(name),
    }
}
