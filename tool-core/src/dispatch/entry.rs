//! A registered tool as the pipeline runs it: what it needs of the tool,
//! made once, at registration.

use std::sync::Arc;

use crate::dispatch::one_at_a_time::OneAtATime;
use crate::dispatch::runner::{Registration, Runner};
use crate::dispatch::schemas::{self, Schemas};
use crate::error::tool_error::RegistryError;
use crate::error::tool_error::Violations;
use crate::tool::metadata::{ToolMetadata, ToolTier};
use crate::tool::name::Name;
use crate::tool::{ToolDefinition, ToolInfo};

/// A registered tool with what the pipeline needs of it, made once.
pub(crate) struct Entry<Ctx> {
    pub(crate) name: Name,
    /// Whether the tool reads its context: a `#[tool]` that takes one, and
    /// every hand-written tool.
    pub(crate) uses_context: bool,
    pub(crate) runner: Runner<Ctx>,
    pub(crate) metadata: ToolMetadata,
    /// Shared with every registry that holds the tool.
    pub(crate) schemas: Arc<Schemas>,
    /// Taken around each run of a tool that is not `concurrency_safe`.
    pub(crate) exclusive: Option<Arc<OneAtATime>>,
    /// Whether a call has nothing to ask and need not wait before the tool
    /// runs: tier `Observe`, not `long_running`; its turn, for a tool that
    /// is not `concurrency_safe`, taken at once when it is free.
    pub(crate) runs_at_once: bool,
    /// Whether the tool runs at once and takes no turn: `runs_at_once`
    /// and `concurrency_safe`, so that the plainest start is one test.
    pub(crate) runs_free: bool,
    /// Whether a call given the arguments as text reads them out of it
    /// (`dispatch/text.rs`): a `#[tool]` whose reading implies its schema,
    /// where a `null` means nothing special, and whose call needs its
    /// arguments as a value for no one (no approval, no background run).
    pub(crate) reads_text: bool,
}

// Not derived: that would ask `Ctx: Clone`. A clone shares the tool's
// turn, so a tool that is not `concurrency_safe` still runs one call at a
// time across a registry's versions (`RegistryHandle`).
impl<Ctx> Clone for Entry<Ctx> {
    fn clone(&self) -> Self {
        Self {
            name: self.name.clone(),
            uses_context: self.uses_context,
            runner: self.runner.clone(),
            metadata: self.metadata.clone(),
            schemas: Arc::clone(&self.schemas),
            exclusive: self.exclusive.clone(),
            runs_at_once: self.runs_at_once,
            runs_free: self.runs_free,
            reads_text: self.reads_text,
        }
    }
}

impl<Ctx> Entry<Ctx> {
    /// What the pipeline needs of a tool, and its definition: an error
    /// when a schema is not a JSON Schema (each is compiled at its first
    /// check).
    pub(crate) fn new(
        tool: Registration<Ctx>,
    ) -> Result<(Self, Arc<ToolDefinition>), RegistryError> {
        let metadata = tool.metadata;
        let name = Name::from(tool.name);
        let (definition, schemas) = schemas::describe(
            &name,
            &tool.description,
            metadata.long_running,
            tool.schemas,
        )?;
        for (index, example) in metadata.input_examples.iter().enumerate() {
            let refused = |problems: String| RegistryError::InvalidExample {
                name: name.to_string(),
                index,
                problems,
            };
            let example: serde_json::Value = serde_json::from_str(example)
                .map_err(|error| refused(format!("it is not JSON: {error}")))?;
            let problems = schemas
                .input_check
                .check(&definition.input_schema, &example);
            if !problems.is_empty() {
                return Err(refused(Violations(&problems).to_string()));
            }
        }
        let runs_at_once = metadata.tier == ToolTier::Observe && !metadata.long_running;
        let reads_text = schemas.implied
            && schemas.absent_nulls.is_none()
            && metadata.tier == ToolTier::Observe
            && !metadata.long_running
            // A tool that asks shares its call, which knows who answers.
            && !metadata.asks;
        let runs_free = runs_at_once && metadata.concurrency_safe;
        let entry = Entry {
            name,
            uses_context: tool.uses_context,
            runner: tool.runner,
            exclusive: (!metadata.concurrency_safe).then(Arc::default),
            metadata,
            schemas,
            runs_at_once,
            runs_free,
            reads_text,
        };
        Ok((entry, definition))
    }

    /// Whether [`Batch::Auto`](crate::registry::Batch::Auto) may run the
    /// tool's calls beside others: it changes nothing, or says its calls
    /// may overlap.
    pub(crate) fn may_overlap(&self) -> bool {
        self.metadata.read_only || self.metadata.concurrency_safe
    }

    pub(crate) fn info<'a>(&'a self, definition: &'a ToolDefinition) -> ToolInfo<'a> {
        ToolInfo {
            definition,
            output_schema: self.schemas.output_schema.as_ref(),
            metadata: &self.metadata,
        }
    }
}
