//! Reading a call's arguments into a tool's input: one idea, one folder.
//!
//! Which path runs, decided when the tool is registered (`Entry`), never
//! in the middle of a call:
//!
//! - **From the text** (`text.rs`, `closed.rs`, `params/`): arguments
//!   given as a JSON string (OpenAI's form) to a `#[tool]` whose reading
//!   implies its schema (`schema/implied.rs`), when nothing else needs them
//!   as a value (no observer, no approval, no background run). No value is
//!   made and no schema checked: each parameter, or the input struct, is
//!   read straight out of the text.
//! - **From a value** (`value/`): every other call. The raw arguments are
//!   made an object first (`raw.rs`: size, JSON, one object, no key twice),
//!   then checked against the schema, unless the tool's reading implies it,
//!   then read by the one value deserializer, `Drain`, borrowed or taken.
//!   A `#[tool]` function reads its parameters one by one (`params/`); a
//!   struct, or a hand-written tool, its input type (`root.rs`).
//!
//! What they share: the same result for the same call, to the byte.
//! Anything the text path does not finish (a bad value, a key it does not
//! know, a key with an escape, text that is not one object) sends the call
//! the whole way from the start, so a failure is always told by the value
//! path, in the schema's words first (a check skipped because the types
//! imply it is made when reading fails). `tests.rs` holds the differential
//! tests that prove it over tools of every shape.

pub(crate) mod closed;
pub(crate) mod params;
pub(crate) mod raw;
pub(crate) mod root;
pub(crate) mod text;

#[cfg(test)]
mod tests;

use std::cell::Cell;
use std::task::Waker;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::dispatch::read::closed::read_input_text;
use crate::dispatch::read::text::Scan;
use crate::error::tool_error::{ToolError, Violation};
use crate::value::{Node, Path};

/// A call as a tool's start function receives it: the model's arguments,
/// read into the tool's input with [`Arguments::read`], which also passes
/// the policy checks that need no one's answer.
#[doc(hidden)]
pub struct Arguments<'a> {
    source: ArgumentSource<'a>,
    tool: &'a str,
    gate: PolicyCheck<'a>,
    /// Whether the tool may run at once, if it can, and the waker its first
    /// poll may take.
    now: RunAtOnce<'a>,
}

/// Whether a tool may run at once, and the waker of the call's poll when
/// its first poll may come where it starts: a run that ends then, as most
/// do, needs nothing kept for later.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct RunAtOnce<'a> {
    pub(crate) at_once: bool,
    pub(crate) waker: Option<&'a Waker>,
}

impl RunAtOnce<'_> {
    /// Not at once: the run is left for later.
    pub const LATER: RunAtOnce<'static> = RunAtOnce {
        at_once: false,
        waker: None,
    };
}

/// Where the arguments are read from.
pub(crate) enum ArgumentSource<'a> {
    /// A JSON value.
    Node(Node<'a>),
    /// The JSON text of an object, read without a value made of it; any
    /// surprise sets the flag, and the call goes the whole way
    /// (`dispatch/text.rs`).
    Text(&'a str, &'a Cell<bool>),
}

impl<'a> Arguments<'a> {
    pub(crate) fn new(
        node: Node<'a>,
        tool: &'a str,
        gate: PolicyCheck<'a>,
        now: RunAtOnce<'a>,
    ) -> Self {
        Self {
            source: ArgumentSource::Node(node),
            tool,
            gate,
            now,
        }
    }

    /// The arguments as the text of a JSON object, for a tool that may
    /// run at once; `failed` is set when they have to be read again the
    /// whole way.
    pub(crate) fn text(
        text: &'a str,
        failed: &'a Cell<bool>,
        tool: &'a str,
        gate: PolicyCheck<'a>,
        now: RunAtOnce<'a>,
    ) -> Self {
        Self {
            source: ArgumentSource::Text(text, failed),
            tool,
            gate,
            now,
        }
    }

    /// Whether the tool may run at once ([`Started`](crate::__private::Started)'s functions take it).
    pub fn now(&self) -> RunAtOnce<'a> {
        self.now
    }

    /// Deserializes the tool's input (an error names the tool, the JSON
    /// Pointer of the bad value and the deserializer's message), then
    /// passes the gate.
    pub fn read<T: DeserializeOwned>(self) -> Result<T, ToolError> {
        self.read_checked(false, |_: &T| Ok(()))
    }

    /// What `Arguments::object` reads, the tool's name, and the gate.
    pub(crate) fn into_parts(self) -> (ArgumentSource<'a>, &'a str, PolicyCheck<'a>) {
        (self.source, self.tool, self.gate)
    }

    /// The value to read, or, for text, an error no one reads: only a
    /// `#[tool]` function's parameters are read out of text.
    fn node(source: ArgumentSource<'a>, tool: &str) -> Result<Node<'a>, ToolError> {
        match source {
            ArgumentSource::Node(node) => Ok(node),
            ArgumentSource::Text(text, failed) => {
                Scan::new(text, failed).fail();
                Err(unread(tool))
            }
        }
    }

    /// [`read`](Arguments::read), with the tool's own checks of the input
    /// between the deserialization and the gate; `closed`, a struct input
    /// refuses arguments that are none of its fields.
    pub(crate) fn read_checked<T: DeserializeOwned>(
        self,
        closed: bool,
        check: impl FnOnce(&T) -> Result<(), Vec<Violation>>,
    ) -> Result<T, ToolError> {
        // Kept small: it is compiled once per input type.
        let input = match self.source {
            ArgumentSource::Text(text, failed) => match read_input_text::<T>(text, closed) {
                Ok(input) => input,
                Err(_) => return Err(Scan::new(text, failed).unread(self.tool)),
            },
            ArgumentSource::Node(node) => {
                let mut path = Path::default();
                match T::deserialize(path.root_reader(node, closed)) {
                    Ok(input) => input,
                    Err(error) => return Err(path.invalid(self.tool, &error)),
                }
            }
        };
        let checks = Checks {
            tool: self.tool,
            gate: self.gate,
        };
        checks.pass(check(&input))?;
        Ok(input)
    }

    /// These arguments with `values` put in, given to `start`: the
    /// arguments an application binds (`Compose::bind`). An argument the
    /// model sent under a bound name is refused, as one it was not shown.
    pub(crate) fn with_inserted<R>(
        self,
        values: &serde_json::Map<String, Value>,
        start: impl FnOnce(Arguments<'_>) -> Result<R, ToolError>,
    ) -> Result<R, ToolError> {
        let mut owned;
        let object = match Self::node(self.source, self.tool)? {
            Node::Take(value) => value,
            Node::Read(value) => {
                owned = value.clone();
                &mut owned
            }
        };
        crate::dispatch::bound::insert(values, self.tool, object)?;
        start(Arguments::new(
            Node::Take(object),
            self.tool,
            self.gate,
            self.now,
        ))
    }

    /// The arguments as they are, for a tool that reads them itself.
    pub(crate) fn into_value(self) -> Result<Value, ToolError> {
        let node = Self::node(self.source, self.tool)?;
        (self.gate)()?;
        Ok(match node {
            Node::Read(value) => value.clone(),
            Node::Take(value) => std::mem::take(value),
        })
    }
}

/// What a `#[tool(validate = ...)]` function returns: its refusal as the
/// violations the model reads.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a verdict on a tool's input",
    label = "the function named by `validate` must return this",
    note = "return `Result<(), Vec<tool_core::Violation>>` or `Result<(), tool_core::Violation>`"
)]
#[doc(hidden)]
pub trait Verdict {
    fn into_violations(self) -> Result<(), Vec<Violation>>;
}

impl Verdict for Result<(), Vec<Violation>> {
    fn into_violations(self) -> Result<(), Vec<Violation>> {
        self
    }
}

impl Verdict for Result<(), Violation> {
    fn into_violations(self) -> Result<(), Vec<Violation>> {
        self.map_err(|violation| vec![violation])
    }
}

/// What is left once a tool's input is read: its own checks, then the
/// gate.
#[doc(hidden)]
pub struct Checks<'a> {
    pub(crate) tool: &'a str,
    pub(crate) gate: PolicyCheck<'a>,
}

impl Checks<'_> {
    /// The tool's verdict on its input, then the gate.
    pub fn pass(self, verdict: impl Verdict) -> Result<(), ToolError> {
        if let Err(violations) = verdict.into_violations() {
            return Err(ToolError::InvalidArguments {
                tool: self.tool.to_owned(),
                violations,
            });
        }
        (self.gate)()
    }
}

/// The policy checks that need no one's answer, passed between a tool's
/// deserialization and its run.
pub(crate) type PolicyCheck<'a> = &'a dyn Fn() -> Result<(), ToolError>;

/// What a tool's start function returns if a parameter it read one by one
/// has no value: `Object::finish` gives every one a value or an error, so
/// this is never seen.
#[doc(hidden)]
pub fn unread(tool: &str) -> ToolError {
    ToolError::MalformedArguments {
        tool: tool.to_owned(),
        problem: "could not be read".to_owned(),
    }
}
