//! What else a tool tells the providers that take it (docs/providers.md
//! 13.2), as the families share it: who may call it.

use serde_json::{Value, json};

use crate::tool::ToolInfo;
use crate::tool::metadata::Callers;

/// Who may call the tool, in a family's words for the model (`model`) and
/// for code (`code`): `None` when only the model may, as every provider
/// assumes.
pub(crate) fn callers(tool: &ToolInfo<'_>, model: &str, code: &str) -> Option<Value> {
    match tool.metadata.callers {
        Callers::Model => None,
        Callers::Code => Some(json!([code])),
        Callers::ModelAndCode => Some(json!([model, code])),
    }
}
