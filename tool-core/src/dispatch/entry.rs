//! A registered tool as the pipeline runs it: what it needs of the tool,
//! made once, at registration.

use std::sync::Arc;

use serde_json::Value;

use crate::dispatch::runner::Runner;
use crate::schema::nulls::AbsentNulls;
use crate::schema::validation::SchemaCheck;
use crate::{ToolDefinition, ToolInfo, ToolMetadata};

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
}

impl<Ctx> Entry<Ctx> {
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
