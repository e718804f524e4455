//! Arguments the application sets for a tool (`Compose::bind`): the model
//! neither sees them in the schema nor sends them; each call gets them
//! before anything reads its arguments. The tool that starts with them is
//! `runner::Bound`.

use serde_json::{Map, Value};

use crate::error::tool_error::{ToolError, Violation};

/// Puts `values` into a call's arguments. An argument the model sent under
/// a bound name is refused, not overwritten: the model was not shown it,
/// and is told so.
pub(crate) fn insert(
    values: &Map<String, Value>,
    tool: &str,
    arguments: &mut Value,
) -> Result<(), ToolError> {
    if arguments.is_null() {
        *arguments = Value::Object(Map::new());
    }
    let Value::Object(object) = arguments else {
        return Err(ToolError::MalformedArguments {
            tool: tool.to_owned(),
            problem: "are not a JSON object".to_owned(),
        });
    };
    let sent: Vec<Violation> = values
        .keys()
        .filter(|name| object.contains_key(name.as_str()))
        .map(|name| {
            Violation::for_argument(name, "the application sets this argument; leave it out")
        })
        .collect();
    if !sent.is_empty() {
        return Err(ToolError::InvalidArguments {
            tool: tool.to_owned(),
            violations: sent,
        });
    }
    for (name, value) in values {
        object.insert(name.clone(), value.clone());
    }
    Ok(())
}

/// The schema the model is shown: `schema` without the bound arguments, in
/// `properties` and in `required`. An error says why the schema cannot be
/// bound so (it does not describe an object with those properties).
pub(crate) fn hide(schema: &Value, names: &[&str]) -> Result<Value, String> {
    let mut shown = schema.clone();
    let properties = shown
        .get_mut("properties")
        .and_then(Value::as_object_mut)
        .ok_or("its input schema has no `properties` to bind an argument of")?;
    if let Some(name) = names.iter().find(|name| !properties.contains_key(**name)) {
        return Err(format!("it has no argument `{name}`"));
    }
    // Made again rather than removed from: the other properties keep their
    // order whether or not serde_json keeps insertion order.
    *properties = std::mem::take(properties)
        .into_iter()
        .filter(|(name, _)| !names.contains(&name.as_str()))
        .collect();
    if let Some(Value::Array(required)) = shown.get_mut("required") {
        required.retain(|name| !names.iter().any(|bound| name.as_str() == Some(*bound)));
        if required.is_empty() {
            shown
                .as_object_mut()
                .map(|object| object.remove("required"));
        }
    }
    Ok(shown)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn hiding_removes_the_property_and_its_requirement() {
        let schema = json!({
            "type": "object",
            "properties": {"owner": {"type": "string"}, "title": {"type": "string"}},
            "required": ["owner", "title"],
            "additionalProperties": false
        });
        assert_eq!(
            hide(&schema, &["owner"]).unwrap(),
            json!({
                "type": "object",
                "properties": {"title": {"type": "string"}},
                "required": ["title"],
                "additionalProperties": false
            })
        );
        let only = json!({"type": "object", "properties": {"owner": {}}, "required": ["owner"]});
        assert_eq!(
            hide(&only, &["owner"]).unwrap(),
            json!({"type": "object", "properties": {}})
        );
        assert_eq!(
            hide(&schema, &["repo"]).unwrap_err(),
            "it has no argument `repo`"
        );
        assert_eq!(
            hide(&json!(true), &["owner"]).unwrap_err(),
            "its input schema has no `properties` to bind an argument of"
        );
    }

    #[test]
    fn a_bound_argument_the_model_sent_is_refused() {
        let values: Map<String, Value> =
            [("owner".to_owned(), json!("acme"))].into_iter().collect();
        let mut arguments = json!({"title": "x"});
        insert(&values, "create_issue", &mut arguments).unwrap();
        assert_eq!(arguments, json!({"title": "x", "owner": "acme"}));
        let mut none = Value::Null;
        insert(&values, "create_issue", &mut none).unwrap();
        assert_eq!(none, json!({"owner": "acme"}));
        let mut sent = json!({"owner": "evil"});
        let error = insert(&values, "create_issue", &mut sent).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid arguments for tool `create_issue`: argument `owner` at `/owner`: the application sets this argument; leave it out. Correct the arguments and call the tool again."
        );
    }
}
