//! The checker catches what it should: for each rule, a definition that
//! breaks it.

use serde_json::{Value, json};
use tool_core::provider::{Blocker, NotStrict, Provider};

use super::{check_definitions, check_tool, name_of, tool_list};
use crate::corpus;

/// An OpenAI Chat tool entry around `parameters`.
fn openai_tool(name: &str, parameters: Value, strict: bool) -> Value {
    json!({"type": "function", "function": {
        "name": name, "description": "A tool.", "parameters": parameters, "strict": strict
    }})
}

/// Asserts that the checker finds, in `definition` for `provider`, a
/// problem whose text contains `expected`.
#[track_caller]
fn assert_caught(provider: Provider, definition: &Value, expected: &str) {
    let problems = check_tool(provider, definition);
    assert!(
        problems.iter().any(|p| p.contains(expected)),
        "{provider}: expected a problem with {expected:?} in {definition}, got {problems:#?}"
    );
}

#[test]
fn the_checker_passes_a_good_schema() {
    let good = json!({
        "type": "object",
        "properties": {
            "title": {"type": "string", "description": "A property named title."},
            "format": {"type": ["string", "null"], "format": "date-time"},
        },
        "required": ["title", "format"],
        "additionalProperties": false
    });
    let strict = Provider::OpenAiChat { strict: true };
    assert_eq!(
        check_tool(strict, &openai_tool("good", good.clone(), true)),
        Vec::<String>::new()
    );
    let gemini = json!({"name": "good", "description": "A tool.", "parametersJsonSchema": good});
    assert_eq!(
        check_tool(Provider::Gemini { openapi: false }, &gemini),
        Vec::<String>::new()
    );
}

/// An OpenAI Chat tool entry in strict mode around `parameters`.
fn strict_openai_tool(parameters: Value) -> Value {
    openai_tool("bad", parameters, true)
}

/// A strict OpenAI Chat tool whose one property, `a`, is `property`, beside
/// a definition `A` to refer to.
fn strict_property_tool(property: Value) -> Value {
    strict_openai_tool(json!({
        "type": "object", "additionalProperties": false, "required": ["a"],
        "properties": {"a": property},
        "$defs": {"A": {"type": "string"}}
    }))
}

#[test]
fn the_checker_catches_openai_strict_objects_not_closed_or_not_all_required() {
    let strict = Provider::OpenAiChat { strict: true };
    let tool = strict_openai_tool;
    let open =
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]});
    assert_caught(strict, &tool(open), "without `additionalProperties: false`");
    let optional = json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false});
    assert_caught(strict, &tool(optional), "is not every property");
    let nested = json!({
        "type": "object", "additionalProperties": false, "required": ["inner"],
        "properties": {"inner": {"type": "object", "properties": {}}}
    });
    assert_caught(
        strict,
        &tool(nested),
        "/properties/inner`: an object without",
    );
}

#[test]
fn the_checker_catches_openai_strict_keywords_outside_the_subset() {
    let strict = Provider::OpenAiChat { strict: true };
    assert_caught(
        strict,
        &strict_property_tool(json!({"oneOf": [{"type": "string"}]})),
        "`oneOf`",
    );
    assert_caught(
        strict,
        &strict_property_tool(json!({"allOf": [{"type": "string"}]})),
        "`allOf`",
    );
    assert_caught(
        strict,
        &strict_property_tool(json!({"type": "string", "not": {}})),
        "`not`",
    );
    assert_caught(
        strict,
        &strict_property_tool(json!({"type": "string", "if": {}})),
        "`if`",
    );
    assert_caught(
        strict,
        &strict_property_tool(json!({"$ref": "#/$defs/A", "description": "x"})),
        "`$ref` with sibling",
    );
    assert_caught(
        strict,
        &strict_property_tool(json!({"$ref": "#/$defs/B"})),
        "does not resolve",
    );
    assert_caught(
        strict,
        &strict_property_tool(json!({"type": "integer", "default": 0})),
        "`default`",
    );
    assert_caught(
        strict,
        &strict_property_tool(json!({"type": "string", "maxLength": 3})),
        "`maxLength`",
    );
    assert_caught(
        strict,
        &strict_property_tool(json!({"type": "string", "minLength": 3})),
        "`minLength`",
    );
    let set = json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true});
    assert_caught(strict, &strict_property_tool(set), "`uniqueItems`");
    let tuple =
        json!({"type": "array", "items": {"type": "string"}, "prefixItems": [{"type": "string"}]});
    assert_caught(strict, &strict_property_tool(tuple), "`prefixItems`");
    let keyed = json!({"type": "object", "patternProperties": {"^a": {"type": "string"}}});
    assert_caught(strict, &strict_property_tool(keyed), "`patternProperties`");
    let named = json!({"type": "object", "propertyNames": {"pattern": "^a"}});
    assert_caught(strict, &strict_property_tool(named), "`propertyNames`");
}

#[test]
fn the_checker_catches_openai_strict_formats_and_values_of_any_type() {
    let strict = Provider::OpenAiChat { strict: true };
    assert_caught(
        strict,
        &strict_property_tool(json!({"type": "string", "format": "uri"})),
        "`format` \"uri\"",
    );
    assert_caught(
        strict,
        &strict_property_tool(json!({"type": "integer", "format": "int32"})),
        "`format` \"int32\"",
    );
    assert_caught(
        strict,
        &strict_property_tool(json!({"type": "array"})),
        "without typed `items`",
    );
    assert_caught(
        strict,
        &strict_property_tool(json!({"type": "array", "items": {}})),
        "without typed `items`",
    );
    assert_caught(
        strict,
        &strict_property_tool(json!({"description": "anything"})),
        "without a type",
    );
    assert_caught(strict, &strict_property_tool(json!(true)), "boolean schema");
    assert_caught(
        strict,
        &strict_property_tool(json!({"type": "string", "pattern": "^(?!x)"})),
        "look-around",
    );
}

#[test]
fn the_checker_holds_only_strict_tools_to_openai_strict_rules() {
    let strict = Provider::OpenAiChat { strict: true };
    // The same schema with `"strict": false` is not held to strict rules.
    let loose = openai_tool(
        "loose",
        json!({"type": "object", "properties": {"a": {"type": "string", "default": "x"}}}),
        false,
    );
    assert_eq!(check_tool(strict, &loose), Vec::<String>::new());
}

/// An object schema without properties.
fn empty_object() -> Value {
    json!({"type": "object", "properties": {}})
}

/// A Gemini function declaration of `name` around `schema`.
fn declaration(name: &str, schema: Value) -> Value {
    json!({"name": name, "description": "A tool.", "parametersJsonSchema": schema})
}

/// An MCP tool of `name` around `schema`, with every hint set against
/// MCP's defaults.
fn mcp_tool(name: &str, schema: Value) -> Value {
    json!({"name": name, "description": "A tool.", "inputSchema": schema, "annotations": {
        "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false
    }})
}

#[test]
fn the_checker_catches_names_that_break_the_providers_rules() {
    let object = empty_object();
    let openai = Provider::OpenAiChat { strict: false };
    assert_caught(
        openai,
        &openai_tool("a.b", object.clone(), false),
        "breaks the provider's rule",
    );
    assert_caught(
        openai,
        &openai_tool(&"x".repeat(65), object.clone(), false),
        "breaks the provider's rule",
    );
    let gemini = Provider::Gemini { openapi: false };
    assert_caught(
        gemini,
        &declaration("1tool", object.clone()),
        "breaks the provider's rule",
    );
    assert_caught(
        Provider::Mcp,
        &mcp_tool("a:b", object.clone()),
        "breaks the provider's rule",
    );
    assert!(check_tool(Provider::Mcp, &mcp_tool("a.b", object.clone())).is_empty());
}

#[test]
fn the_checker_catches_bad_roots_and_tool_entries() {
    let object = empty_object();
    let openai = Provider::OpenAiChat { strict: false };
    assert_caught(
        Provider::Mcp,
        &json!({"name": "a", "description": "A tool.", "inputSchema": object.clone(),
                "annotations": {"readOnlyHint": false}}),
        "the hints that differ from MCP's defaults",
    );
    assert_caught(
        openai,
        &openai_tool("t", json!({"type": "string"}), false),
        "root's `type`",
    );
    assert_caught(
        openai,
        &openai_tool("t", json!({"anyOf": [object.clone()]}), false),
        "root's `type`",
    );
    let with_schema =
        json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"});
    assert_caught(
        openai,
        &openai_tool("t", with_schema.clone(), false),
        "`$schema`",
    );
    assert_caught(Provider::Mcp, &mcp_tool("t", with_schema), "`$schema`");
    // The entry's shape.
    assert_caught(
        openai,
        &json!({"type": "function", "name": "t", "parameters": object.clone()}),
        "not `{\"type\"",
    );
}

#[test]
fn the_checker_catches_anthropic_strict_violations() {
    let anthropic = Provider::Anthropic { strict: true };
    let anthropic_tool = |property: Value| {
        json!({"name": "t", "description": "A tool.", "strict": true, "input_schema": {
            "type": "object", "additionalProperties": false, "properties": {"a": property}
        }})
    };
    let open = json!({"type": "object", "properties": {}});
    assert_caught(
        anthropic,
        &anthropic_tool(open),
        "without `additionalProperties: false`",
    );
    for keyword in [
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ] {
        assert_caught(
            anthropic,
            &anthropic_tool(json!({"type": "integer", keyword: 1})),
            keyword,
        );
    }
    for keyword in ["minLength", "maxLength"] {
        assert_caught(
            anthropic,
            &anthropic_tool(json!({"type": "string", keyword: 1})),
            keyword,
        );
    }
    let array = |keyword: &str, value: Value| json!({"type": "array", "items": {"type": "string"}, keyword: value});
    assert_caught(
        anthropic,
        &anthropic_tool(array("maxItems", json!(3))),
        "`maxItems`",
    );
    assert_caught(
        anthropic,
        &anthropic_tool(array("uniqueItems", json!(true))),
        "`uniqueItems`",
    );
    assert_caught(
        anthropic,
        &anthropic_tool(array("minItems", json!(2))),
        "`minItems` 2",
    );
    assert!(check_tool(anthropic, &anthropic_tool(array("minItems", json!(1)))).is_empty());
    assert_caught(anthropic, &anthropic_tool(json!({"$ref": "#"})), "`$ref`");
}

#[test]
fn the_checker_catches_gemini_violations() {
    let gemini = Provider::Gemini { openapi: false };
    let gemini_with = |property: Value| {
        declaration(
            "t",
            json!({"type": "object", "properties": {"title": property}, "required": ["title"]}),
        )
    };
    assert!(
        check_tool(gemini, &gemini_with(json!({"type": "string"}))).is_empty(),
        "a property named `title`"
    );
    for (bad, keyword) in [
        (json!({"type": "string", "title": "T"}), "`title`"),
        (json!({"type": "string", "const": "x"}), "`const`"),
        (json!({"oneOf": [{"type": "string"}]}), "`oneOf`"),
        (json!({"allOf": [{"type": "string"}]}), "`allOf`"),
        (json!({"type": "string", "minLength": 1}), "`minLength`"),
        (
            json!({"type": "array", "items": {"type": "string"}, "uniqueItems": true}),
            "`uniqueItems`",
        ),
        (
            json!({"type": "integer", "format": "uint8"}),
            "`format` \"uint8\"",
        ),
        (
            json!({"type": "string", "format": "email"}),
            "`format` \"email\"",
        ),
        (
            json!({"type": "integer", "exclusiveMinimum": 0}),
            "`exclusiveMinimum`",
        ),
        (
            json!({"type": "array", "prefixItems": [{"type": "string"}]}),
            "`prefixItems`",
        ),
        (
            json!({"type": "object", "properties": {}, "propertyOrdering": []}),
            "`propertyOrdering`",
        ),
    ] {
        assert_caught(gemini, &gemini_with(bad), keyword);
    }
    let referring = json!({
        "type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}
    });
    assert_caught(gemini, &declaration("t", referring.clone()), "`$ref`");
    assert_caught(gemini, &declaration("t", referring), "`$defs`");
    let unknown = json!({"type": "object", "properties": {}, "required": ["ghost"]});
    assert_caught(gemini, &declaration("t", unknown), "`required`");
}

#[test]
fn the_checker_catches_gemini_openapi_violations() {
    let legacy = Provider::Gemini { openapi: true };
    let legacy_with = |property: Value| json!({"name": "t", "description": "A tool.", "parameters": {"type": "OBJECT", "properties": {"a": property}}});
    assert!(
        check_tool(
            legacy,
            &legacy_with(json!({"type": "STRING", "nullable": true}))
        )
        .is_empty()
    );
    assert_caught(
        legacy,
        &legacy_with(json!({"type": "string"})),
        "upper-case",
    );
    assert_caught(
        legacy,
        &legacy_with(json!({"type": ["STRING", "NULL"]})),
        "upper-case",
    );
    assert_caught(legacy, &legacy_with(json!({"$ref": "#/defs/A"})), "`$ref`");
    assert_caught(
        legacy,
        &legacy_with(json!({"type": "INTEGER", "enum": [1, 2]})),
        "not a list of strings",
    );
    let map = json!({"type": "OBJECT", "additionalProperties": {"type": "STRING"}});
    assert_caught(legacy, &legacy_with(map), "`additionalProperties`");
    let choice = json!({"description": "x", "anyOf": [{"type": "STRING"}, {"type": "INTEGER"}]});
    assert_caught(legacy, &legacy_with(choice), "`anyOf` beside");
    let dashed = json!({"type": "OBJECT", "properties": {"per-page": {"type": "INTEGER"}}});
    assert_caught(legacy, &legacy_with(dashed), "property name `per-page`");
    let lower_root =
        json!({"name": "t", "description": "A tool.", "parameters": {"type": "object"}});
    assert_caught(legacy, &lower_root, "root's `type` is not `OBJECT`");
}

#[test]
fn the_checker_catches_mcp_groq_and_ollama_violations() {
    let object = empty_object();
    let nullable =
        json!({"type": "object", "properties": {"a": {"type": "string", "nullable": true}}});
    assert_caught(Provider::Mcp, &mcp_tool("t", nullable), "`nullable`");
    // Groq and Ollama: no `strict`; Ollama: only the fields it reads.
    let loose_chat = openai_tool("t", object.clone(), false);
    assert_caught(Provider::Groq, &loose_chat, "`function` is not");
    assert_caught(Provider::Ollama, &loose_chat, "`function` is not");
    let ollama_tool = |schema: Value| json!({"type": "function", "function": {"name": "t", "description": "A tool.", "parameters": schema}});
    assert!(check_tool(Provider::Ollama, &ollama_tool(object.clone())).is_empty());
    let ranged = json!({"type": "object", "properties": {"a": {"type": "integer", "minimum": 1}}});
    assert_caught(
        Provider::Ollama,
        &ollama_tool(ranged),
        "`minimum` is not a field Ollama reads",
    );
    let described_root = json!({"type": "object", "properties": {}, "description": "x"});
    assert_caught(
        Provider::Ollama,
        &ollama_tool(described_root),
        "`description` is not a field Ollama reads",
    );
    let referenced = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}});
    assert_caught(Provider::Ollama, &ollama_tool(referenced), "`$ref`");
}

#[test]
fn the_checker_refuses_the_loose_schemas_as_strict_ones() {
    // The corpus's schemas as sent without strict mode, claimed strict:
    // every one breaks some strict rule (an open object, an optional
    // property, a schemars `format`, ...), and the checker must say so.
    let registry = corpus::registry();
    // Anthropic takes as they are the tool without parameters,
    // `store_value` (a closed root, nothing but descriptions below it) and
    // `allow_address` (its `ip` format, outside JSON Schema's, now said in
    // the description);
    // OpenAI wants even the former's `"required": []` spelled out, and
    // takes `convert_quantity` (numbers, all required, in a closed root)
    // now that the loose form carries no schemars `format` either.
    let cases: [(Provider, Provider, &[&str]); 2] = [
        (
            Provider::OpenAiChat { strict: false },
            Provider::OpenAiChat { strict: true },
            &["convert_quantity"],
        ),
        (
            Provider::Anthropic { strict: false },
            Provider::Anthropic { strict: true },
            &["store_value", "allow_address", "ping"],
        ),
    ];
    for (loose, strict, expected) in cases {
        let definitions = loose.definitions(&registry).expect("definitions");
        let mut passed = Vec::new();
        for tool in tool_list(loose, definitions.as_json()) {
            let mut claimed = tool.clone();
            match strict {
                Provider::OpenAiChat { .. } => claimed["function"]["strict"] = Value::Bool(true),
                _ => claimed["strict"] = Value::Bool(true),
            }
            if check_tool(strict, &claimed).is_empty() {
                passed.extend(name_of(strict, tool).map(str::to_owned));
            }
        }
        assert_eq!(passed, expected, "{strict}: passed as strict");
    }
}

#[test]
fn the_checker_catches_strict_flags_that_disagree_with_not_strict() {
    let provider = Provider::OpenAiChat { strict: true };
    let schema =
        json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false});
    let tools = json!([
        openai_tool("fell_back", schema.clone(), false),
        openai_tool("kept", schema, true)
    ]);
    let problems = check_definitions(provider, &tools, &[]);
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`fell_back`") && p.contains("not listed")),
        "{problems:#?}"
    );
    let listed = |tool: &str, reason: &str| NotStrict {
        tool: tool.into(),
        blockers: vec![Blocker {
            at: String::new(),
            reason: reason.into(),
        }],
    };
    let problems = check_definitions(
        provider,
        &tools,
        &[listed("fell_back", "a map"), listed("kept", "x")],
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`kept`") && p.contains("listed")),
        "{problems:#?}"
    );
    let problems = check_definitions(provider, &tools, &[listed("fell_back", " ")]);
    assert!(
        problems.iter().any(|p| p.contains("without a reason")),
        "{problems:#?}"
    );
    assert!(check_definitions(provider, &tools, &[listed("fell_back", "a map")]).is_empty());
}
