//! A registered tool as the pipeline runs it: what it needs of the tool,
//! made once, at registration.

use std::sync::Arc;

use serde_json::Value;

use crate::dispatch::runner::{Registration, Runner};
use crate::schema::nulls::AbsentNulls;
use crate::schema::validation::SchemaCheck;
use crate::{RegistryError, ToolDefinition, ToolInfo, ToolMetadata, ToolTier};

/// A registered tool with what the pipeline needs of it, made once.
pub(crate) struct Entry<Ctx> {
    pub(crate) name: Arc<str>,
    /// Whether the tool reads its context ([`TypedTool::uses_context`](crate::TypedTool::uses_context)).
    pub(crate) uses_context: bool,
    pub(crate) runner: Runner<Ctx>,
    pub(crate) metadata: ToolMetadata,
    pub(crate) output_schema: Option<Value>,
    pub(crate) input_check: SchemaCheck,
    pub(crate) output_check: Option<SchemaCheck>,
    /// Where a `null` means the argument was left out.
    pub(crate) absent_nulls: Option<AbsentNulls>,
    /// Taken around each run of a tool that is not `concurrency_safe`.
    pub(crate) exclusive: Option<Arc<tokio::sync::Mutex<()>>>,
    /// Whether a call has nothing to ask and nothing to wait for before
    /// the tool runs: tier `Observe`, not `long_running`, no lock.
    pub(crate) runs_at_once: bool,
    /// Whether a call may read the arguments' text into the tool's
    /// parameters (`dispatch/text.rs`): a `#[tool]` function that sees no
    /// context and runs at once, where a `null` means nothing special.
    /// Whether its parameters can is up to their types.
    pub(crate) reads_text: bool,
}

/// Appended to the description of a `long_running` tool.
const LONG_RUNNING_NOTE: &str = "This tool runs in the background: a call returns at once with a call id, and the result follows later. Do not call it again while a call is pending.";

impl<Ctx> Entry<Ctx> {
    /// What the pipeline needs of a tool, and its definition: an error
    /// when a schema is not a JSON Schema (each is compiled at its first
    /// check).
    pub(crate) fn new(tool: Registration<Ctx>) -> Result<(Self, ToolDefinition), RegistryError> {
        let schema_error = |which, message| RegistryError::InvalidSchema {
            name: tool.name.to_string(),
            which,
            message,
        };
        let input_check =
            SchemaCheck::new(&tool.input_schema).map_err(|m| schema_error("input", m))?;
        let output_check = match &tool.output_schema {
            Some(schema) => Some(SchemaCheck::new(schema).map_err(|m| schema_error("output", m))?),
            None => None,
        };
        let metadata = tool.metadata;
        let mut description = tool.description.into_owned();
        if metadata.long_running {
            description = format!("{description}\n\n{LONG_RUNNING_NOTE}");
        }
        let absent_nulls = AbsentNulls::compile(&tool.input_schema);
        let runs_at_once = metadata.tier == ToolTier::Observe
            && !metadata.long_running
            && metadata.concurrency_safe;
        let reads_text = tool.reads_text && runs_at_once && absent_nulls.is_none();
        let definition = ToolDefinition {
            name: tool.name.into_owned(),
            description,
            input_schema: tool.input_schema,
        };
        let entry = Entry {
            name: Arc::from(definition.name.as_str()),
            uses_context: tool.uses_context,
            runner: tool.runner,
            exclusive: (!metadata.concurrency_safe).then(Arc::default),
            metadata,
            output_schema: tool.output_schema,
            input_check,
            output_check,
            absent_nulls,
            runs_at_once,
            reads_text,
        };
        Ok((entry, definition))
    }

    pub(crate) fn info<'a>(&'a self, definition: &'a ToolDefinition) -> ToolInfo<'a> {
        ToolInfo {
            name: &definition.name,
            description: &definition.description,
            input_schema: &definition.input_schema,
            output_schema: self.output_schema.as_ref(),
            metadata: &self.metadata,
        }
    }
}
