//! A tool's definition and schemas with what checks against them: the same
//! in every registry that holds the tool, so made once and shared.
//!
//! A `#[tool]`'s are made once per process, at its first registration:
//! its schemas come from its types (or its `schema = ...`), which do not
//! change while the program runs, and making them (schemars, then the
//! check against the meta-schema) is most of what registering costs. A
//! program that builds a registry per session or per request pays that
//! once. A hand-written tool's schemas are read from the tool each time,
//! since they may be its own.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

use crate::dispatch::runner::SchemaSource;
use crate::error::tool_error::RegistryError;
use crate::schema::implied::reading_implies;
use crate::schema::nulls::AbsentNulls;
use crate::schema::validation::SchemaCheck;
use crate::tool::ToolDefinition;

/// What the pipeline checks a tool's arguments and output with.
pub(crate) struct Schemas {
    pub(crate) input_check: SchemaCheck,
    pub(crate) output_schema: Option<Value>,
    pub(crate) output_check: Option<SchemaCheck>,
    /// Where a `null` means the argument was left out.
    pub(crate) absent_nulls: Option<AbsentNulls>,
    /// Whether reading the arguments checks everything the input schema
    /// says (`schema/implied.rs`): then the schema is checked only when
    /// reading fails, for the words it says it in.
    pub(crate) implied: bool,
}

impl Schemas {
    /// The same tool's schemas, with `input` the input schema a model is
    /// shown: its own without the arguments the application binds.
    /// Reading still checks all of it that reading checked before.
    pub(crate) fn with_input(&self, input: &Value) -> Result<Self, String> {
        Ok(Self {
            input_check: SchemaCheck::new(input)?,
            output_check: self
                .output_schema
                .as_ref()
                .map(SchemaCheck::new)
                .transpose()?,
            output_schema: self.output_schema.clone(),
            absent_nulls: AbsentNulls::compile(input),
            implied: self.implied,
        })
    }
}

/// A tool as every registry that holds it shares it.
pub(crate) type Described = (Arc<ToolDefinition>, Arc<Schemas>);

/// Appended to the description of a `long_running` tool.
const LONG_RUNNING_NOTE: &str = "This tool runs in the background: a call returns at once with a call id, and the result follows later. Do not call it again while a call is pending.";

/// A tool's description as the model reads it: a `long_running` tool's
/// says how its calls go.
pub(crate) fn described(description: &str, long_running: bool) -> String {
    if long_running {
        format!("{description}\n\n{LONG_RUNNING_NOTE}")
    } else {
        description.to_owned()
    }
}

/// Every `#[tool]` registered so far in this process, by the address of
/// its facts. A schema that is refused is not kept: it is refused again.
static MADE: Mutex<BTreeMap<usize, Described>> = Mutex::new(BTreeMap::new());

/// The tool's definition and schemas: an error when a schema is not a JSON
/// Schema (each is compiled at its first check).
pub(crate) fn describe(
    name: &str,
    description: &str,
    long_running: bool,
    source: SchemaSource,
) -> Result<Described, RegistryError> {
    let (input, output, key, derived) = match source {
        SchemaSource::Given { input, output } => (input, output, None, false),
        SchemaSource::Compiled {
            facts,
            input,
            output,
            derived,
        } => {
            let key = std::ptr::from_ref(facts) as usize;
            if let Some((definition, schemas)) = made().get(&key) {
                return Ok((Arc::clone(definition), Arc::clone(schemas)));
            }
            // Made outside the lock: another thread registering the same
            // tool at the same time makes the same values.
            (input(), output(), Some(key), derived)
        }
    };
    let schema_error = |which, message| RegistryError::InvalidSchema {
        name: name.to_owned(),
        which,
        message,
    };
    let input_check = SchemaCheck::new(&input).map_err(|m| schema_error("input", m))?;
    let output_check = match &output {
        Some(schema) => Some(SchemaCheck::new(schema).map_err(|m| schema_error("output", m))?),
        None => None,
    };
    let description = described(description, long_running);
    let schemas = Arc::new(Schemas {
        absent_nulls: AbsentNulls::compile(&input),
        implied: derived && reading_implies(&input),
        input_check,
        output_schema: output,
        output_check,
    });
    let definition = Arc::new(ToolDefinition {
        name: name.to_owned(),
        description,
        input_schema: input,
    });
    let described = (definition, schemas);
    if let Some(key) = key {
        let mut made = made();
        let kept = made.entry(key).or_insert(described);
        return Ok((Arc::clone(&kept.0), Arc::clone(&kept.1)));
    }
    Ok(described)
}

fn made() -> std::sync::MutexGuard<'static, BTreeMap<usize, Described>> {
    MADE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Forgets every `#[tool]`'s schemas, so that the next registration of
/// each makes them again: what a new process would do.
pub(crate) fn forget_all() {
    made().clear();
}
