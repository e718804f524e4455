//! What OpenAI's strict mode and Anthropic's strict tool use ask alike.

use serde_json::{Map, Value};

use crate::schema::dialect::{Unfit, one_of_as_any_of};

/// Keywords that make a schema unfit for either strict mode but hold
/// subschemas: a pass keeps them (its output is thrown away anyway, as
/// [`shared_rules`] has said why) so that its walk reaches what is inside
/// and names those blockers too.
pub(crate) const BLOCKERS_WITH_SUBSCHEMAS: [&str; 2] = ["prefixItems", "patternProperties"];

/// The rules both strict modes share, on one node: `oneOf` as `anyOf`, a
/// one-schema `allOf` merged, and no tuples, pattern-keyed maps or patterns
/// with a construct in `refused_in_patterns`; every rule broken is added to
/// `unfit`. `mode` names the mode in messages.
pub(crate) fn shared_rules(
    map: &mut Map<String, Value>,
    at: &str,
    mode: &str,
    refused_in_patterns: &[&str],
    unfit: &mut Vec<Unfit>,
) {
    one_of_as_any_of(map);
    match map.remove("allOf") {
        None => {}
        Some(Value::Array(mut all_of)) if all_of.len() == 1 => {
            if let Some(Value::Object(only)) = all_of.pop() {
                for (keyword, value) in only {
                    map.entry(keyword).or_insert(value);
                }
            }
        }
        Some(_) => unfit.push(Unfit::new(
            at,
            format!("`allOf` of several schemas is outside {mode}'s subset"),
        )),
    }
    if map.contains_key("prefixItems") {
        unfit.push(Unfit::new(
            at,
            format!("a tuple (`prefixItems`) is outside {mode}'s subset"),
        ));
    }
    if map.contains_key("patternProperties") || map.contains_key("propertyNames") {
        unfit.push(Unfit::new(
            at,
            format!("a map whose keys follow a pattern: {mode} closes every object"),
        ));
    }
    if let Some(Value::String(pattern)) = map.get("pattern")
        && refused_in_patterns.iter().any(|p| pattern.contains(p))
    {
        unfit.push(Unfit::new(
            at,
            format!("a `pattern` with a look-around or back-reference, which {mode} refuses"),
        ));
    }
}

/// Closes an object: `additionalProperties: false`, or adds to `unfit` why
/// it cannot be (a map with free keys, a flattened enum).
pub(crate) fn close(map: &mut Map<String, Value>, at: &str, mode: &str, unfit: &mut Vec<Unfit>) {
    // Closing such an object would refuse the choice's properties, and each
    // choice the object's own.
    if ["anyOf", "allOf"].iter().any(|k| map.contains_key(*k)) && map.contains_key("properties") {
        unfit.push(Unfit::new(
            at,
            format!(
                "an object with properties of its own and of a choice (a flattened enum?): {mode} closes every object"
            ),
        ));
        return;
    }
    if map.get("unevaluatedProperties") == Some(&Value::Bool(false)) {
        map.remove("unevaluatedProperties");
    }
    let described: Vec<&String> = match map.get("properties") {
        Some(Value::Object(properties)) => properties.keys().collect(),
        _ => Vec::new(),
    };
    // Closed, a `required` name that no property describes could never be
    // sent, and the call without it is refused.
    let undescribed: Vec<String> = super::required_names(map)
        .into_iter()
        .filter(|name| !described.contains(&name))
        .map(|name| format!("`{name}`"))
        .collect();
    if !undescribed.is_empty() {
        unfit.push(Unfit::new(
            at,
            format!(
                "an object that requires {} without describing {}: {mode} closes every object, so no call could have {}",
                undescribed.join(", "),
                if undescribed.len() == 1 { "it" } else { "them" },
                if undescribed.len() == 1 { "it" } else { "them" },
            ),
        ));
    }
    // A pattern-keyed map is named by the shared rules already.
    let keyed_by_pattern =
        map.contains_key("patternProperties") || map.contains_key("propertyNames");
    match map.get("additionalProperties") {
        Some(Value::Bool(false)) => {}
        // An object that describes its properties: closing it only keeps
        // the model from keys the tool does not read (serde ignores them).
        None if !described.is_empty() || keyed_by_pattern => {
            map.insert("additionalProperties".into(), Value::Bool(false));
        }
        // Nothing described and nothing said of other keys: JSON Schema
        // takes any key, and closed it would take only `{}`.
        None => unfit.push(Unfit::new(
            at,
            format!(
                "a free-form object (no `properties`, any keys allowed): {mode} closes every object, which would leave it only `{{}}`"
            ),
        )),
        Some(_) => unfit.push(Unfit::new(
            at,
            format!("a map (`additionalProperties` is a schema): {mode} closes every object"),
        )),
    }
}
