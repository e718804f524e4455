//! Whether a derived schema says anything that serde's reading of the same
//! types does not check.
//!
//! A `#[tool]`'s derived schema and its parameters' `Deserialize` impls
//! come from the same types and the same `#[serde]` attributes. Where the
//! schema uses only what serde's derive also enforces (types, `enum` and
//! `const`, `required`, `additionalProperties`, integers' ranges, nested
//! and referenced schemas of the same), a value serde reads is one the
//! schema accepts, and checking it against the schema first only repeats
//! the work. Anything else (a `pattern`, a length, a `format` the check
//! enforces, `uniqueItems`, a bound narrower than the type's, a keyword
//! this list does not know) is a promise only the schema's check keeps, so
//! such a schema is checked on every call.
//!
//! The trust is in the derives: a parameter type whose hand-written
//! `Deserialize` accepts more than its `JsonSchema` describes reads what it
//! accepts. A registry that wants every call checked anyway says
//! [`validation`](crate::registry::RegistryBuilder::validation)`(`[`Validation::Always`](crate::Validation::Always)`)`.

use serde_json::{Map, Value};

/// Whether reading a value with the types `schema` was derived from checks
/// everything `schema` says.
pub(crate) fn reading_implies(schema: &Value) -> bool {
    Walk {
        root: schema,
        visiting: Vec::new(),
    }
    .schema(schema)
}

struct Walk<'a> {
    root: &'a Value,
    /// The definitions being walked: a recursive type refers back to one,
    /// which then holds if the rest of it does.
    visiting: Vec<&'a str>,
}

impl<'a> Walk<'a> {
    fn schema(&mut self, schema: &'a Value) -> bool {
        match schema {
            Value::Bool(accepts) => *accepts,
            Value::Object(keywords) => keywords
                .iter()
                .all(|(keyword, value)| self.keyword(keywords, keyword, value)),
            _ => false,
        }
    }

    fn keyword(&mut self, keywords: &Map<String, Value>, keyword: &str, value: &'a Value) -> bool {
        match keyword {
            // Annotations: no check reads them.
            "title" | "description" | "default" | "examples" | "deprecated" | "readOnly"
            | "writeOnly" | "$comment" | "$schema" => true,
            // Walked where a `$ref` leads.
            "$defs" | "definitions" => true,
            // What serde's derive refuses too: a value of another type, a
            // unit variant or tag it does not know, a field left out that
            // has no default, a key `deny_unknown_fields` does not know.
            "type" | "enum" | "const" | "required" => true,
            "properties" => value
                .as_object()
                .is_some_and(|properties| properties.values().all(|each| self.schema(each))),
            // `false`: `deny_unknown_fields`.
            "additionalProperties" => value.is_boolean() || self.schema(value),
            "items" => self.schema(value),
            // Options, tagged and untagged enums: serde tries the same
            // forms.
            "anyOf" | "oneOf" => value
                .as_array()
                .is_some_and(|forms| forms.iter().all(|each| self.schema(each))),
            "$ref" => value.as_str().is_some_and(|target| self.reference(target)),
            "format" | "minimum" | "maximum" => integer_bounds_hold(keywords),
            // A `char`: exactly one character, as serde reads one.
            "minLength" | "maxLength" => {
                keywords.get("type").and_then(Value::as_str) == Some("string")
                    && keywords.get("minLength").and_then(Value::as_u64) == Some(1)
                    && keywords.get("maxLength").and_then(Value::as_u64) == Some(1)
            }
            _ => false,
        }
    }

    /// A reference into the root's definitions, walked once.
    fn reference(&mut self, target: &'a str) -> bool {
        let Some(name) = target
            .strip_prefix("#/$defs/")
            .or_else(|| target.strip_prefix("#/definitions/"))
        else {
            return false;
        };
        if self.visiting.contains(&name) {
            return true;
        }
        let definitions = target.split('/').nth(1).unwrap_or_default();
        let Some(definition) = self.root.get(definitions).and_then(|all| all.get(name)) else {
            return false;
        };
        self.visiting.push(name);
        let holds = self.schema(definition);
        self.visiting.pop();
        holds
    }
}

/// A number's `format`, `minimum` and `maximum` say no more than its Rust
/// type does: a float's format, or an integer's with bounds, when given,
/// those of its type (what serde refuses past).
fn integer_bounds_hold(keywords: &Map<String, Value>) -> bool {
    let format = keywords.get("format").and_then(Value::as_str);
    if matches!(format, Some("float" | "double"))
        && !keywords.contains_key("minimum")
        && !keywords.contains_key("maximum")
    {
        return true;
    }
    let Some((min, max)) = format.and_then(integer_range) else {
        return false;
    };
    let at = |bound: &str, limit: i128| {
        keywords
            .get(bound)
            .is_none_or(|value| as_i128(value) == Some(limit))
    };
    at("minimum", min) && at("maximum", max)
}

/// The range of the integer type schemars names with `format`.
fn integer_range(format: &str) -> Option<(i128, i128)> {
    Some(match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" | "int" => (i64::MIN.into(), i64::MAX.into()),
        "uint8" => (0, u8::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "uint64" | "uint" => (0, u64::MAX.into()),
        _ => return None,
    })
}

fn as_i128(value: &Value) -> Option<i128> {
    let number = value.as_number()?;
    number
        .as_i64()
        .map(i128::from)
        .or_else(|| number.as_u64().map(i128::from))
}

#[cfg(all(test, feature = "schemars"))]
mod tests {
    use std::collections::{BTreeMap, HashSet};

    use schemars::JsonSchema;
    use serde::Deserialize;
    use serde_json::json;

    use super::reading_implies;
    use crate::schema::input_schema_for;

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "lowercase")]
    #[allow(dead_code)]
    enum Units {
        Celsius,
        Fahrenheit,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Item {
        /// The article.
        sku: String,
        quantity: u32,
        note: Option<String>,
    }

    #[derive(Deserialize, JsonSchema)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    #[allow(dead_code)]
    enum Shape {
        Circle { radius: f64 },
        Square { side: f32 },
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    enum Target {
        Path(String),
        Id(u64),
        Nowhere,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Tree {
        name: String,
        children: Vec<Tree>,
    }

    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Implied {
        units: Option<Units>,
        items: Vec<Item>,
        shape: Shape,
        target: Target,
        tree: Tree,
        counts: BTreeMap<String, i8>,
        letter: char,
        small: u16,
        big: usize,
        signed: i32,
        ratio: f64,
        #[serde(default)]
        flag: bool,
        anything: serde_json::Value,
    }

    #[test]
    fn what_serde_derives_also_checks_is_implied() {
        let schema = input_schema_for::<Implied>();
        assert!(reading_implies(&schema), "{schema:#}");
        assert!(reading_implies(&json!(true)));
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Ranged {
        #[schemars(range(min = 1, max = 10))]
        count: u8,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Patterned {
        #[schemars(regex(pattern = "^[a-z]+$"))]
        slug: String,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Lengths {
        #[schemars(length(min = 1))]
        names: Vec<String>,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Set {
        tags: HashSet<String>,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Address {
        ip: std::net::Ipv4Addr,
    }

    #[test]
    fn what_only_the_schema_checks_is_not() {
        assert!(!reading_implies(&input_schema_for::<Ranged>()));
        assert!(!reading_implies(&input_schema_for::<Patterned>()));
        assert!(!reading_implies(&input_schema_for::<Lengths>()));
        assert!(!reading_implies(&input_schema_for::<Set>()));
        assert!(!reading_implies(&input_schema_for::<Address>()));
        for schema in [
            json!(false),
            json!({"type": "integer", "minimum": 1}),
            json!({"type": "integer", "format": "uint8", "maximum": 9}),
            json!({"type": "string", "format": "email"}),
            json!({"type": "string", "minLength": 2}),
            json!({"allOf": [{"type": "object"}]}),
            json!({"$ref": "#/$defs/Missing"}),
            json!({"$ref": "https://example.com/schema"}),
            json!({"type": "object", "patternProperties": {"^x": {}}}),
            json!({"type": "number", "format": "double", "minimum": 0}),
            json!({"x-custom": 1}),
        ] {
            assert!(!reading_implies(&schema), "{schema}");
        }
    }
}
