//! The `format`s a JSON Schema dialect defines, and the rest taken out.
//!
//! schemars writes the Rust type as a format (`uint8`, `int32`, `double`,
//! `ip`, ...). No JSON Schema validator or client knows these: the
//! TypeScript MCP client says "unknown format ... ignored" on every call,
//! and a model reads a keyword that says nothing the `type` and the range
//! keywords beside it do not.

use serde_json::{Map, Value};

use crate::schema::dialect::walk::each_subschema;
use crate::schema::dialect::{describe, said_aloud};

/// JSON Schema 2020-12's format vocabulary (Validation, section 7.3): the
/// formats of MCP's `inputSchema` and `outputSchema`, of Anthropic's and of
/// OpenAI's `parameters` outside strict mode (which take JSON Schema as it
/// is; the strict modes and Gemini keep lists of their own).
pub(crate) const JSON_SCHEMA_FORMATS: [&str; 19] = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// Takes out of every subschema the formats outside
/// [`JSON_SCHEMA_FORMATS`]: silently from a number (its `type` and range
/// say it: `uint8` beside `minimum: 0, maximum: 255`), into the description
/// otherwise (`format: ip`), as every dialect keeps what a removed keyword
/// said.
pub(crate) fn standard_formats(schema: &mut Value) {
    let mut pass = |node: &mut Value, _: &str| {
        if let Value::Object(map) = node {
            keep_standard(map);
        }
    };
    pass(schema, "");
    each_subschema(schema, "", &mut pass);
}

fn keep_standard(map: &mut Map<String, Value>) {
    let known = |value: &Value| {
        value
            .as_str()
            .is_some_and(|format| JSON_SCHEMA_FORMATS.contains(&format))
    };
    match map.get("format") {
        None => {}
        Some(format) if known(format) => {}
        // Not a format at all (a property called `format` is under
        // `properties`, never here): left for the validator to refuse.
        Some(format) if !format.is_string() => {}
        Some(_) => {
            // `retain`, not `remove`: the other keywords keep their order.
            let mut format = None;
            map.retain(|keyword, value| {
                let is_format = keyword == "format";
                if is_format {
                    format = Some(std::mem::take(value));
                }
                !is_format
            });
            if let Some(format) = format
                && said_aloud("format", &format, map)
            {
                describe(map, &[("format".to_owned(), format)]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn only_the_vocabulary_stays_numbers_lose_theirs_silently() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "count": {"type": "integer", "format": "uint32", "minimum": 0},
                "offset": {"type": ["integer", "null"], "format": "int32"},
                "ratio": {"type": "number", "format": "double"},
                "host": {"description": "Where.", "type": "string", "format": "ip"},
                "mail": {"type": "string", "format": "email"},
                "list": {"type": "array", "items": {"type": "number", "format": "float"}}
            }
        });
        standard_formats(&mut schema);
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {
                    "count": {"type": "integer", "minimum": 0},
                    "offset": {"type": ["integer", "null"]},
                    "ratio": {"type": "number"},
                    "host": {"description": "Where. (format: \"ip\")", "type": "string"},
                    "mail": {"type": "string", "format": "email"},
                    "list": {"type": "array", "items": {"type": "number"}}
                }
            })
        );
    }
}
