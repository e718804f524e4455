//! Anthropic's strict tool use (`"strict": true`).

use serde_json::Value;

use super::openai::{merge_single_all_of, said_aloud};
use super::refs::{Inline, inline};
use super::walk::children;
use super::{Unfit, describe, is_object, one_of_as_any_of, plain, required_names, take_keywords};

/// The string formats strict tool use knows.
const FORMATS: [&str; 10] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Keywords strict tool use keeps (`format` and `minItems` checked apart).
const KEPT: [&str; 15] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "allOf",
    "enum",
    "const",
    "description",
    "title",
    "default",
    "pattern",
    "format",
    "minItems",
];

/// What Anthropic allows across the strict tools of one request.
const MAX_STRICT_TOOLS: usize = 20;
const MAX_OPTIONAL: usize = 24;
const MAX_UNIONS: usize = 16;

/// The strict tools of one request so far, against Anthropic's limits.
#[derive(Debug, Default)]
pub(crate) struct AnthropicBudget {
    tools: usize,
    optional: usize,
    unions: usize,
}

/// The schema for `"strict": true`, or why there is none: every object
/// closed, optional properties left optional (Anthropic counts nullable
/// unions against a small budget), references inlined (recursion is
/// refused), `oneOf` as `anyOf`, and the keywords strict mode refuses
/// (numeric ranges, lengths, `maxItems`, ...) removed with what they said
/// kept in the description. `budget` is shared by the tools of one request.
pub(crate) fn anthropic_strict(
    schema: &Value,
    budget: &mut AnthropicBudget,
) -> Result<Value, Unfit> {
    let mut schema = inline(plain(schema), Inline::All)?;
    let mut pass = Pass::default();
    pass.node(&mut schema, "")?;
    if budget.tools + 1 > MAX_STRICT_TOOLS {
        return Err(Unfit::new(
            "",
            format!("a request may have at most {MAX_STRICT_TOOLS} strict tools"),
        ));
    }
    if budget.optional + pass.optional > MAX_OPTIONAL {
        return Err(Unfit::new(
            "",
            format!(
                "the strict tools of a request may have at most {MAX_OPTIONAL} optional parameters in all"
            ),
        ));
    }
    if budget.unions + pass.unions > MAX_UNIONS {
        return Err(Unfit::new(
            "",
            format!(
                "the strict tools of a request may have at most {MAX_UNIONS} parameters with `anyOf` or several types in all"
            ),
        ));
    }
    budget.tools += 1;
    budget.optional += pass.optional;
    budget.unions += pass.unions;
    Ok(schema)
}

#[derive(Default)]
struct Pass {
    optional: usize,
    unions: usize,
}

impl Pass {
    fn node(&mut self, node: &mut Value, at: &str) -> Result<(), Unfit> {
        // `true` is `{}` already; `false` closes an `additionalProperties`.
        let Value::Object(map) = node else {
            return Ok(());
        };
        one_of_as_any_of(map);
        merge_single_all_of(map, at)?;
        if map.contains_key("prefixItems") {
            return Err(Unfit::new(
                at,
                "a tuple (`prefixItems`) is outside strict tool use's subset",
            ));
        }
        if map.contains_key("patternProperties") || map.contains_key("propertyNames") {
            return Err(Unfit::new(
                at,
                "a map whose keys follow a pattern: strict tool use closes every object",
            ));
        }
        if let Some(Value::Array(values)) = map.get("enum")
            && values.iter().any(|v| v.is_object() || v.is_array())
        {
            return Err(Unfit::new(
                at,
                "an `enum` of objects or arrays (strict tool use takes only plain values)",
            ));
        }
        if let Some(Value::String(pattern)) = map.get("pattern")
            && ["(?=", "(?!", "(?<=", "(?<!", "\\b", "\\1"]
                .iter()
                .any(|p| pattern.contains(p))
        {
            return Err(Unfit::new(
                at,
                "a `pattern` with a look-around or back-reference, which strict tool use refuses",
            ));
        }
        if map.get("unevaluatedProperties") == Some(&Value::Bool(false)) {
            map.remove("unevaluatedProperties");
        }
        if is_object(map) {
            match map.get("additionalProperties") {
                None | Some(Value::Bool(false)) => {}
                Some(_) => {
                    return Err(Unfit::new(
                        at,
                        "a map (`additionalProperties` is a schema): strict tool use closes every object",
                    ));
                }
            }
            map.insert("additionalProperties".into(), Value::Bool(false));
            let required = required_names(map);
            if let Some(Value::Object(properties)) = map.get("properties") {
                for (name, property) in properties {
                    self.optional += usize::from(!required.contains(name));
                    let union = property.get("anyOf").is_some()
                        || property.get("type").is_some_and(Value::is_array);
                    self.unions += usize::from(union);
                }
            }
        }
        let removed = take_keywords(map, |keyword, value| {
            !KEPT.contains(&keyword)
                || (keyword == "format" && !FORMATS.contains(&value.as_str().unwrap_or_default()))
                || (keyword == "minItems" && !matches!(value.as_u64(), Some(0 | 1)))
        });
        let said: Vec<(String, Value)> = removed
            .into_iter()
            .filter(|(keyword, value)| said_aloud(keyword, value, map))
            .collect();
        describe(map, &said);
        let mut failed = None;
        children(map, at, &mut |child, pointer| {
            if failed.is_none()
                && let Err(error) = self.node(child, pointer)
            {
                failed = Some(error);
            }
        });
        failed.map_or(Ok(()), Err)
    }
}
