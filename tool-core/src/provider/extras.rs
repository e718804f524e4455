//! What else a tool tells the providers that take it (docs/providers.md
//! 13.2): its example inputs, eager input streaming, and who may call it.

use serde_json::{Value, json};

use crate::provider::Provider;
use crate::provider::definitions::{Blocker, NotStrict};
use crate::tool::ToolInfo;
use crate::tool::metadata::Callers;

/// The code execution tool whose sandbox calls a tool programmatically,
/// as Anthropic names it in `allowed_callers`.
const ANTHROPIC_CODE: &str = "code_execution_20260120";

/// Adds the tool's extras to its definition for `provider`, where the
/// provider takes them; a strict Anthropic tool that code may call is made
/// loose, since programmatic calling takes no strict tools, and `not_strict`
/// says so.
pub(super) fn add(
    provider: Provider,
    tool: &ToolInfo<'_>,
    definition: &mut Value,
    not_strict: &mut Option<NotStrict>,
) {
    let metadata = tool.metadata;
    let callers = |model: &str, code: &str| -> Option<Value> {
        match metadata.callers {
            Callers::Model => None,
            Callers::Code => Some(json!([code])),
            Callers::ModelAndCode => Some(json!([model, code])),
        }
    };
    match provider {
        Provider::Anthropic { .. } => {
            if !metadata.input_examples.is_empty() {
                // Read when the tool was registered: JSON, and its schema's.
                let examples = metadata
                    .input_examples
                    .iter()
                    .filter_map(|example| serde_json::from_str(example).ok())
                    .collect();
                definition["input_examples"] = Value::Array(examples);
            }
            if metadata.eager_input_streaming {
                definition["eager_input_streaming"] = Value::Bool(true);
            }
            if let Some(callers) = callers("direct", ANTHROPIC_CODE) {
                definition["allowed_callers"] = callers;
                if definition.get("strict") == Some(&Value::Bool(true)) {
                    definition["strict"] = Value::Bool(false);
                    let blocker = Blocker {
                        at: String::new(),
                        reason: "code may call it (`allowed_callers`), and programmatic tool calling takes no strict tools".into(),
                    };
                    not_strict
                        .get_or_insert_with(|| NotStrict {
                            tool: tool.definition.name.clone(),
                            blockers: Vec::new(),
                        })
                        .blockers
                        .push(blocker);
                }
            }
        }
        Provider::OpenAiResponses { .. } => {
            if let Some(callers) = callers("direct", "programmatic") {
                definition["allowed_callers"] = callers;
            }
        }
        _ => {}
    }
}
