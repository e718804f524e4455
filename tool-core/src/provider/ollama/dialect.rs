//! Ollama's tool parameters: what its server reads a tool's schema into
//! (`api.ToolFunctionParameters` and `api.ToolProperty` in Ollama's
//! `api/types.go`, docs/providers.md 11.2). Go's decoder drops every other
//! keyword without a word, and the model is shown what is left.

use serde_json::{Map, Value};

use crate::schema::dialect::refs::{Inline, inline};
use crate::schema::dialect::subset::simplify;
use crate::schema::dialect::walk::children;
use crate::schema::dialect::{Unfit, keep_only, make_nullable, plain};

/// The fields of `ToolProperty`: all a property keeps. `items` is kept as
/// it comes, but is held to the same fields here, so that every level
/// reads alike.
const PROPERTY_KEPT: [&str; 7] = [
    "type",
    "description",
    "enum",
    "items",
    "anyOf",
    "properties",
    "required",
];

/// The fields of `ToolFunctionParameters` that a rewritten schema still
/// uses (its `$defs` and `items` have nothing left to hold once every
/// reference is inlined).
const ROOT_KEPT: [&str; 3] = ["type", "properties", "required"];

/// The schema for Ollama: references inlined (the inner level of a
/// recursive type described, not repeated), `oneOf` as `anyOf`, `allOf`
/// merged, `const` as a one-value `enum`, tuples as arrays of a choice, and
/// only the fields Ollama reads. What a property's other keywords said
/// (`minimum: 1`, `format: date-time`, a map's values) is kept in its
/// description, the one place the model still reads it; the root has no
/// description of its own, so what it loses goes unsaid (a closed object's
/// `additionalProperties: false`, its title). Or everything Ollama cannot
/// be told: a reference to nothing, arguments that are one of several
/// objects.
pub(crate) fn ollama(schema: &Value) -> Result<Value, Vec<Unfit>> {
    let mut unfit = Vec::new();
    let mut schema = inline(plain(schema), Inline::CutRecursion, &mut unfit);
    if let Value::Object(root) = &mut schema {
        simplify(root);
        if root.contains_key("anyOf") {
            unfit.push(Unfit::new(
                "",
                "the arguments are one of several objects (a flattened enum?), which Ollama's tool parameters cannot say: they keep only `type`, `properties` and `required` at the root",
            ));
        }
        root.retain(|keyword, _| ROOT_KEPT.contains(&keyword.as_str()));
        children(root, "", &mut property);
    }
    if unfit.is_empty() {
        Ok(schema)
    } else {
        Err(unfit)
    }
}

/// One subschema, as a `ToolProperty`.
fn property(node: &mut Value, at: &str) {
    let Value::Object(map) = node else {
        return;
    };
    spell_nullable(map);
    simplify(map);
    // Below first, so that a dropped subschema (a map's values) is said in
    // the description as Ollama would read it.
    children(map, at, &mut property);
    keep_only(map, |keyword, _| PROPERTY_KEPT.contains(&keyword));
}

/// A hand-written OpenAPI `nullable: true` as JSON Schema's `null` type,
/// which `ToolProperty`'s list of types can hold.
fn spell_nullable(map: &mut Map<String, Value>) {
    if map.remove("nullable") == Some(Value::Bool(true)) {
        make_nullable(map);
    }
}
