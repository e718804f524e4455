//! Compaction as every provider gets it: definitions used once written in
//! place, and what the range or the name already says left out.

use serde_json::json;

use crate::provider::mcp::dialect::mcp_input;
use crate::schema::dialect::plain;

#[test]
fn a_definition_used_once_is_written_in_place_with_both_descriptions() {
    let schema = json!({
        "type": "object",
        "properties": {
            "home": {"description": "Where the user lives.", "$ref": "#/$defs/Address"},
            "units": {"anyOf": [{"$ref": "#/$defs/Units"}, {"type": "null"}]},
            "from": {"$ref": "#/$defs/City"},
            "to": {"$ref": "#/$defs/City"}
        },
        "required": ["home", "from", "to"],
        "$defs": {
            "Address": {
                "description": "A postal address.",
                "type": "object",
                "properties": {"city": {"$ref": "#/$defs/Name"}},
                "required": ["city"]
            },
            "Name": {"type": "string", "minLength": 1},
            "Units": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            "City": {"type": "string", "description": "A city."}
        }
    });
    assert_eq!(
        plain(&schema),
        json!({
            "type": "object",
            "properties": {
                "home": {
                    "description": "Where the user lives.\n\nA postal address.",
                    "type": "object",
                    "properties": {"city": {"type": "string", "minLength": 1}},
                    "required": ["city"]
                },
                "units": {"anyOf": [{"type": "string", "enum": ["celsius", "fahrenheit"]}, {"type": "null"}]},
                "from": {"$ref": "#/$defs/City"},
                "to": {"$ref": "#/$defs/City"}
            },
            "required": ["home", "from", "to"],
            "$defs": {"City": {"type": "string", "description": "A city."}}
        })
    );
}

#[test]
fn a_recursive_definition_stays_a_definition_even_when_used_once() {
    let schema = json!({
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Tree"}},
        "$defs": {"Tree": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}}}
    });
    assert_eq!(plain(&schema), schema);
}

#[test]
fn what_the_range_or_the_name_already_says_goes_and_constraints_stay() {
    let schema = json!({
        "type": "object",
        "properties": {
            "small": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255},
            "narrow": {"type": "integer", "format": "int16", "minimum": 1, "maximum": 20},
            "wide": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 300},
            "open": {"type": "integer", "format": "uint32", "minimum": 0},
            "ratio": {"type": "number", "format": "double"},
            "unit_price": {"type": "number", "title": "Unit price"},
            "tags": {
                "type": "array", "items": {"type": "string", "minLength": 0},
                "minItems": 0, "uniqueItems": false, "deprecated": false
            },
            "named": {"type": "string", "title": "A name", "minLength": 2}
        }
    });
    assert_eq!(
        plain(&schema),
        json!({
            "type": "object",
            "properties": {
                "small": {"type": "integer", "minimum": 0, "maximum": 255},
                "narrow": {"type": "integer", "minimum": 1, "maximum": 20},
                "wide": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 300},
                "open": {"type": "integer", "format": "uint32", "minimum": 0},
                "ratio": {"type": "number", "format": "double"},
                "unit_price": {"type": "number"},
                "tags": {"type": "array", "items": {"type": "string"}},
                "named": {"type": "string", "title": "A name", "minLength": 2}
            }
        })
    );
    // MCP's schema also loses the formats JSON Schema does not define: the
    // range says them.
    let mut standard = plain(&schema);
    for name in ["wide", "open", "ratio"] {
        standard["properties"][name]
            .as_object_mut()
            .map(|property| property.remove("format"));
    }
    assert_eq!(mcp_input(&schema), standard);
    assert_eq!(
        standard["properties"]["wide"],
        json!({"type": "integer", "minimum": 0, "maximum": 300})
    );
}

#[test]
fn a_title_is_dropped_only_where_a_property_name_says_it() {
    // `items` here is the keyword of a property called `properties`, not a
    // property called `items`: its title says something.
    let schema = json!({
        "type": "object",
        "properties": {
            "properties": {"type": "array", "items": {"type": "string", "title": "Items"}},
            "a/b~c": {"type": "string", "title": "A/b~c"},
            "list": {"type": "array", "prefixItems": [{"type": "string", "title": "0"}]}
        }
    });
    assert_eq!(
        plain(&schema),
        json!({
            "type": "object",
            "properties": {
                "properties": {"type": "array", "items": {"type": "string", "title": "Items"}},
                "a/b~c": {"type": "string"},
                "list": {"type": "array", "prefixItems": [{"type": "string", "title": "0"}]}
            }
        })
    );
}
