//! A function call whose arguments Gemini streams over several parts
//! (Vertex AI's `streamFunctionCallArguments`): the first part names the
//! call, each part after it sets arguments by a JSON path
//! (`partialArgs: [{"jsonPath": "$.city", "stringValue": "Ly",
//! "willContinue": true}]`, a string going on in the next part for the
//! same path), and the call is whole at the first part whose
//! `willContinue` is not `true`.

use serde_json::{Map, Value};

/// The call being streamed.
#[derive(Debug)]
pub(crate) struct StreamedCall {
    /// Its place among the calls.
    pub(crate) index: usize,
    /// The part as it will be kept: `functionCall` with its name and id,
    /// and the part's other fields (a thought signature).
    part: Map<String, Value>,
    /// The arguments so far.
    args: Value,
    /// The path whose string the next part goes on with, if any.
    continued: Option<String>,
    /// The bytes of argument text set so far, for the registry's bound.
    pub(crate) bytes: usize,
}

impl StreamedCall {
    /// The call `part` begins: its `functionCall` names it.
    pub(crate) fn begin(index: usize, part: &Value) -> Self {
        let mut kept = part.as_object().cloned().unwrap_or_default();
        let call = kept.remove("functionCall").unwrap_or(Value::Null);
        let mut function_call = Map::new();
        for field in ["name", "id"] {
            if let Some(value) = call.get(field) {
                function_call.insert(field.to_owned(), value.clone());
            }
        }
        kept.insert("functionCall".to_owned(), Value::Object(function_call));
        let args = match call.get("args") {
            Some(Value::Object(args)) => Value::Object(args.clone()),
            _ => Value::Object(Map::new()),
        };
        Self {
            index,
            part: kept,
            args,
            continued: None,
            bytes: 0,
        }
    }

    /// Applies one part's `partialArgs` (and its `args`, if it has them);
    /// whether the call is whole after it.
    pub(crate) fn apply(&mut self, call: &Value) -> Result<bool, String> {
        if let Some(Value::Object(args)) = call.get("args")
            && let Value::Object(so_far) = &mut self.args
        {
            so_far.extend(args.clone());
        }
        for partial in call
            .get("partialArgs")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let path = partial
                .get("jsonPath")
                .and_then(Value::as_str)
                .ok_or("a partial argument has no `jsonPath`")?;
            let value = if let Some(text) = partial.get("stringValue").and_then(Value::as_str) {
                self.bytes += text.len();
                if self.continued.as_deref() == Some(path) {
                    let slot = slot(&mut self.args, path)?;
                    match slot {
                        Value::String(so_far) => so_far.push_str(text),
                        other => *other = Value::String(text.to_owned()),
                    }
                    self.continued = continues(partial).then(|| path.to_owned());
                    continue;
                }
                Value::String(text.to_owned())
            } else if let Some(number) = partial.get("numberValue") {
                number.clone()
            } else if let Some(flag) = partial.get("boolValue") {
                flag.clone()
            } else if partial.get("nullValue").is_some() {
                Value::Null
            } else {
                return Err(format!("the partial argument at `{path}` holds no value"));
            };
            self.bytes += path.len();
            *slot(&mut self.args, path)? = value;
            self.continued = continues(partial).then(|| path.to_owned());
        }
        Ok(!continues(call))
    }

    /// The call's part, whole: what the response keeps.
    pub(crate) fn into_part(mut self) -> Value {
        if let Some(Value::Object(call)) = self.part.get_mut("functionCall") {
            call.insert("args".to_owned(), self.args);
        }
        Value::Object(self.part)
    }
}

/// Whether a part (or a partial argument) says more of it follows.
pub(crate) fn continues(value: &Value) -> bool {
    value.get("willContinue") == Some(&Value::Bool(true))
}

/// The value a JSON path (RFC 9535's plain form: `$`, `.name`, `['name']`,
/// `[index]`) names in `root`, made as objects and arrays on the way.
fn slot<'v>(root: &'v mut Value, path: &str) -> Result<&'v mut Value, String> {
    let rest = path
        .strip_prefix('$')
        .ok_or_else(|| format!("the JSON path `{path}` does not begin with `$`"))?;
    let mut at = root;
    let mut rest = rest;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            at = field(at, &after[..end]);
            rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix("['").or_else(|| rest.strip_prefix("[\"")) {
            let end = after
                .find(['\'', '"'])
                .ok_or_else(|| format!("the JSON path `{path}` has a name left open"))?;
            at = field(at, &after[..end]);
            rest = after[end + 1..]
                .strip_prefix(']')
                .ok_or_else(|| format!("the JSON path `{path}` has a name left open"))?;
        } else if let Some(after) = rest.strip_prefix('[') {
            let end = after
                .find(']')
                .ok_or_else(|| format!("the JSON path `{path}` has an index left open"))?;
            let index: usize = after[..end]
                .parse()
                .map_err(|_| format!("the JSON path `{path}` has an index that is no number"))?;
            if !at.is_array() {
                *at = Value::Array(Vec::new());
            }
            if let Value::Array(items) = at {
                if items.len() <= index {
                    items.resize(index + 1, Value::Null);
                }
                at = &mut items[index];
            }
            rest = &after[end + 1..];
        } else {
            return Err(format!(
                "the JSON path `{path}` is not one this reader knows"
            ));
        }
    }
    Ok(at)
}

/// The field `name` of `value`, made an object if it was not one.
fn field<'v>(value: &'v mut Value, name: &str) -> &'v mut Value {
    if !value.is_object() {
        *value = Value::Object(Map::new());
    }
    match value {
        Value::Object(fields) => fields.entry(name.to_owned()).or_insert(Value::Null),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn paths_set_nested_fields_and_items() {
        let mut root = json!({});
        *slot(&mut root, "$.a.b[1]").unwrap() = json!(2);
        *slot(&mut root, "$['c d']").unwrap() = json!("x");
        assert_eq!(root, json!({"a": {"b": [null, 2]}, "c d": "x"}));
        assert_eq!(
            slot(&mut root, "a").unwrap_err(),
            "the JSON path `a` does not begin with `$`"
        );
    }
}
