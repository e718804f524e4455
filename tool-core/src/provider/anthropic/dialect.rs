//! Anthropic's strict tool use (`"strict": true`).

use serde_json::Value;

use crate::schema::dialect::refs::{Inline, inline};
use crate::schema::dialect::strict::{BLOCKERS_WITH_SUBSCHEMAS, close, shared_rules};
use crate::schema::dialect::walk::children;
use crate::schema::dialect::{Unfit, drop_null, is_object, keep_only, plain, required_names};

/// The mode, as messages name it.
const MODE: &str = "strict tool use";

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
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct AnthropicBudget {
    tools: usize,
    optional: usize,
    unions: usize,
}

/// The schema for `"strict": true`, or everything that keeps it from strict
/// tool use, in the order met: every object
/// closed, optional properties left optional (Anthropic counts nullable
/// unions against a small budget), references inlined (recursion is
/// refused), `oneOf` as `anyOf`, and the keywords strict mode refuses
/// (numeric ranges, lengths, `maxItems`, ...) removed with what they said
/// kept in the description. `budget` is shared by the tools of one request;
/// a tool that goes without strict mode spends none of it.
pub(crate) fn anthropic_strict(
    schema: &Value,
    budget: &mut AnthropicBudget,
) -> Result<Value, Vec<Unfit>> {
    let mut unfit = Vec::new();
    let mut schema = inline(plain(schema), Inline::All, &mut unfit);
    let mut pass = Pass {
        unfit,
        ..Pass::default()
    };
    pass.node(&mut schema, "");
    if !pass.unfit.is_empty() {
        return Err(pass.unfit);
    }
    // The request's limits, each one this tool would pass.
    let mut over = Vec::new();
    if budget.tools + 1 > MAX_STRICT_TOOLS {
        over.push(Unfit::new(
            "",
            format!("a request may have at most {MAX_STRICT_TOOLS} strict tools"),
        ));
    }
    if budget.optional + pass.optional > MAX_OPTIONAL {
        over.push(Unfit::new(
            "",
            format!(
                "the strict tools of a request may have at most {MAX_OPTIONAL} optional parameters in all"
            ),
        ));
    }
    if budget.unions + pass.unions > MAX_UNIONS {
        over.push(Unfit::new(
            "",
            format!(
                "the strict tools of a request may have at most {MAX_UNIONS} parameters with `anyOf` or several types in all"
            ),
        ));
    }
    if !over.is_empty() {
        return Err(over);
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
    /// What keeps the schema from strict tool use, in the order met.
    unfit: Vec<Unfit>,
}

impl Pass {
    fn node(&mut self, node: &mut Value, at: &str) {
        // `true` is `{}` already; `false` closes an `additionalProperties`.
        let Value::Object(map) = node else {
            return;
        };
        let blocked = self.unfit.len();
        let refused_in_patterns = ["(?=", "(?!", "(?<=", "(?<!", "\\b", "\\1"];
        shared_rules(map, at, MODE, &refused_in_patterns, &mut self.unfit);
        if let Some(Value::Array(values)) = map.get("enum")
            && values.iter().any(|v| v.is_object() || v.is_array())
        {
            self.unfit.push(Unfit::new(
                at,
                format!("an `enum` of objects or arrays ({MODE} takes only plain values)"),
            ));
        }
        if is_object(map) {
            close(map, at, MODE, &mut self.unfit);
            let required = required_names(map);
            if let Some(Value::Object(properties)) = map.get_mut("properties") {
                for (name, property) in properties.iter_mut() {
                    let Value::Object(property) = property else {
                        continue;
                    };
                    if !required.contains(name) {
                        // Optional by omission, as Anthropic counts a
                        // `null` choice against its small union budget.
                        drop_null(property);
                        self.optional += 1;
                    }
                    let union = ["anyOf", "oneOf"].iter().any(|k| property.contains_key(*k))
                        || property.get("type").is_some_and(Value::is_array);
                    self.unions += usize::from(union);
                }
            }
        }
        let blocked = self.unfit.len() > blocked;
        keep_only(map, |keyword, value| {
            (KEPT.contains(&keyword)
                && (keyword != "format" || FORMATS.contains(&value.as_str().unwrap_or_default()))
                && (keyword != "minItems" || matches!(value.as_u64(), Some(0 | 1))))
                || (blocked && BLOCKERS_WITH_SUBSCHEMAS.contains(&keyword))
        });
        children(map, at, &mut |child, pointer| self.node(child, pointer));
    }
}
