//! How a registry holds a tool: what it says about itself, read once, and
//! the one function that starts it.
//!
//! Only that function needs the tool's own types (its input, its function,
//! its output); everything around it (arguments, validation, policy,
//! timeouts, panics, events, output) is compiled once, in the pipeline. A
//! `#[tool]` gives a plain function pointer; a hand-written tool is reached
//! through [`Prepare`].

use std::borrow::Cow;
use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde_json::{Error, Value};

use crate::dispatch::closed::read_input_text;
use crate::dispatch::input::{Drain, Node, Path};
use crate::dispatch::schemas::SchemaSource;
use crate::dispatch::text::Scan;
use crate::{BoxFuture, ToolContext, ToolError, ToolMetadata, ToolResult, Violation};

/// A call as a tool's start function receives it: the model's arguments,
/// read into the tool's input with [`Arguments::read`], which also passes
/// the policy checks that need no one's answer.
#[doc(hidden)]
pub struct Arguments<'a> {
    source: Source<'a>,
    tool: &'a str,
    gate: Gate<'a>,
    /// Whether the tool may run at once, if it can.
    pub now: bool,
}

/// Where the arguments are read from.
pub(crate) enum Source<'a> {
    /// A JSON value.
    Node(Node<'a>),
    /// The JSON text of an object, read without a value made of it; any
    /// surprise sets the flag, and the call goes the whole way
    /// (`dispatch/text.rs`).
    Text(&'a str, &'a Cell<bool>),
}

impl<'a> Arguments<'a> {
    pub(crate) fn new(node: Node<'a>, tool: &'a str, gate: Gate<'a>, now: bool) -> Self {
        Self {
            source: Source::Node(node),
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
        gate: Gate<'a>,
        now: bool,
    ) -> Self {
        Self {
            source: Source::Text(text, failed),
            tool,
            gate,
            now,
        }
    }

    /// Deserializes the tool's input (an error names the tool, the JSON
    /// Pointer of the bad value and the deserializer's message), then
    /// passes the gate.
    pub fn read<T: DeserializeOwned>(self) -> Result<T, ToolError> {
        self.read_checked(false, |_: &T| Ok(()))
    }

    /// What `Arguments::object` reads, the tool's name, and the gate.
    pub(crate) fn into_parts(self) -> (Source<'a>, &'a str, Gate<'a>) {
        (self.source, self.tool, self.gate)
    }

    /// The value to read, or, for text, an error no one reads: only a
    /// `#[tool]` function's parameters are read out of text.
    fn node(source: Source<'a>, tool: &str) -> Result<Node<'a>, ToolError> {
        match source {
            Source::Node(node) => Ok(node),
            Source::Text(text, failed) => {
                Scan::new(text, failed).fail();
                Err(crate::__private::unread(tool))
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
            Source::Text(text, failed) => match read_input_text::<T>(text, closed) {
                Ok(input) => input,
                Err(_) => return Err(Scan::new(text, failed).unread(self.tool)),
            },
            Source::Node(node) => {
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
    pub(crate) gate: Gate<'a>,
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
pub(crate) type Gate<'a> = &'a dyn Fn() -> Result<(), ToolError>;

/// A tool once started: its result, or what is left to run.
#[doc(hidden)]
pub enum Started {
    /// It ran at once.
    Done(ToolResult),
    /// A plain function's run, left for once the call may go on.
    Call(Box<dyn FnOnce() -> ToolResult + Send>),
    /// An `async` tool's run.
    Wait(BoxFuture<'static, ToolResult>),
}

impl Started {
    /// Runs `run` now if `now`, or leaves it for later.
    #[inline]
    pub fn call(now: bool, run: impl FnOnce() -> ToolResult + Send + 'static) -> Self {
        if now {
            Started::Done(run())
        } else {
            Started::Call(Box::new(run))
        }
    }

    /// The same for a tool that reads its context: borrowed for a run now,
    /// owned by a run left for later.
    pub fn call_with<C: Send + Sync + 'static>(
        ctx: Cow<'_, ToolContext<C>>,
        now: bool,
        run: impl FnOnce(&ToolContext<C>) -> ToolResult + Send + 'static,
    ) -> Self {
        if now {
            Started::Done(run(&ctx))
        } else {
            let ctx = ctx.into_owned();
            Started::Call(Box::new(move || run(&ctx)))
        }
    }

    /// An `async` run, to be awaited.
    pub fn wait(run: impl Future<Output = ToolResult> + Send + 'static) -> Self {
        Started::Wait(Box::pin(run))
    }

    /// An `async` function's future, its output made the result by
    /// `finish`. The future is boxed as it is and `finish` is a plain
    /// function: no future around it is compiled per tool, only per output
    /// type.
    pub fn finish<F>(run: F, finish: fn(F::Output) -> ToolResult) -> Self
    where
        F: Future + Send + 'static,
        F::Output: 'static,
    {
        Started::Wait(Box::pin(Finish {
            run: Box::pin(run),
            finish,
        }))
    }
}

/// What starts a `#[tool]` that does not read its context: read the
/// arguments, then run (at once if `now` and it can).
#[doc(hidden)]
pub type Start = fn(Arguments<'_>) -> Result<Started, ToolError>;

/// The same for a `#[tool]` that reads a `ToolContext<C>`.
#[doc(hidden)]
pub type StartWith<C> = fn(Cow<'_, ToolContext<C>>, Arguments<'_>) -> Result<Started, ToolError>;

/// What a `#[tool]` says of itself, as a `static`.
#[doc(hidden)]
pub struct Facts {
    pub name: &'static str,
    pub description: &'static str,
    pub metadata: ToolMetadata,
}

/// A tool as `#[tool]` describes it: its facts and its functions.
#[doc(hidden)]
pub struct Compiled<S> {
    pub facts: &'static Facts,
    pub input_schema: fn() -> Value,
    pub output_schema: fn() -> Option<Value>,
    pub start: S,
    /// Whether the input schema is derived from the types `start` reads
    /// (not written by hand).
    pub derived: bool,
}

/// A hand-written tool as the registry runs it: deserialize, pass the gate,
/// then run at once when it can and `now`, or leave a run that owns what it
/// needs (so that a `long_running` call can go on in the background).
pub(crate) trait Prepare<Ctx>: Send + Sync {
    fn start(
        &self,
        ctx: Cow<'_, ToolContext<Ctx>>,
        args: Arguments<'_>,
    ) -> Result<Started, ToolError>;

    /// Whether the tool can run for this caller now.
    fn check_available(&self, ctx: &ToolContext<Ctx>) -> Result<(), String>;
}

/// How a registered tool starts.
pub(crate) enum Runner<Ctx> {
    Free(Start),
    With(StartWith<Ctx>),
    Dyn(Arc<dyn Prepare<Ctx>>),
}

impl<Ctx> Runner<Ctx> {
    pub(crate) fn start(
        &self,
        ctx: Cow<'_, ToolContext<Ctx>>,
        args: Arguments<'_>,
    ) -> Result<Started, ToolError> {
        match self {
            Runner::Free(start) => start(args),
            Runner::With(start) => start(ctx, args),
            Runner::Dyn(tool) => tool.start(ctx, args),
        }
    }

    pub(crate) fn check_available(&self, ctx: &ToolContext<Ctx>) -> Result<(), String> {
        match self {
            Runner::Dyn(tool) => tool.check_available(ctx),
            Runner::Free(_) | Runner::With(_) => Ok(()),
        }
    }
}

/// A tool ready to be added to a registry: what it says about itself, read
/// once, and how it starts.
#[doc(hidden)]
pub struct Registration<Ctx> {
    pub(crate) name: Cow<'static, str>,
    pub(crate) description: Cow<'static, str>,
    pub(crate) schemas: SchemaSource,
    pub(crate) metadata: ToolMetadata,
    /// Whether the tool reads its context.
    pub(crate) uses_context: bool,
    pub(crate) runner: Runner<Ctx>,
}

impl<Ctx> Registration<Ctx> {
    /// A `#[tool]` that does not read its context.
    pub fn free(tool: Compiled<Start>) -> Self {
        Self::compiled(tool, false, Runner::Free)
    }

    /// A `#[tool]` that reads its `ToolContext<Ctx>`.
    pub fn with_context(tool: Compiled<StartWith<Ctx>>) -> Self {
        Self::compiled(tool, true, Runner::With)
    }

    fn compiled<S>(tool: Compiled<S>, uses_context: bool, runner: fn(S) -> Runner<Ctx>) -> Self {
        Self {
            name: Cow::Borrowed(tool.facts.name),
            description: Cow::Borrowed(tool.facts.description),
            schemas: SchemaSource::Compiled {
                facts: tool.facts,
                input: tool.input_schema,
                output: tool.output_schema,
                derived: tool.derived,
            },
            metadata: tool.facts.metadata.clone(),
            uses_context,
            runner: runner(tool.start),
        }
    }
}

/// A future whose output becomes a tool's result.
struct Finish<R> {
    run: BoxFuture<'static, R>,
    finish: fn(R) -> ToolResult,
}

impl<R> Future for Finish<R> {
    type Output = ToolResult;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ToolResult> {
        self.run.as_mut().poll(cx).map(self.finish)
    }
}

impl<'a> Path<'a> {
    /// The deserializer of the arguments as a whole: `closed`, a struct
    /// read there refuses a key that is none of its fields.
    #[inline]
    pub(crate) fn root_reader<'p>(&'p mut self, node: Node<'a>, closed: bool) -> Root<'a, 'p> {
        Root {
            drain: self.reader(node),
            closed,
        }
    }
}

/// The deserializer of a tool's arguments as a whole: `Drain`, except
/// that, `closed`, a struct read here refuses a key that is none of its
/// fields (serde's `FIELDS`, aliases included) in serde's words, as
/// `deny_unknown_fields` would: a `#[tool]` struct refuses unknown
/// arguments as a `#[tool]` function's parameters do, whatever its schema
/// says. A struct with `#[serde(flatten)]` is read as a map and keeps its
/// own rule. Nested values are read by `Drain` alone.
pub(crate) struct Root<'a, 'p> {
    drain: Drain<'a, 'p>,
    closed: bool,
}

impl<'de> Deserializer<'de> for Root<'_, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.drain.deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.drain.deserialize_option(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        if self.closed
            && let Value::Object(map) = self.drain.node.value()
            && let Some(key) = map.keys().find(|key| !fields.contains(&key.as_str()))
        {
            // Said of the arguments as a whole, the key bounded as the
            // path would bound it.
            let key = crate::Echo(key).to_string();
            return Err(de::Error::unknown_field(&key, fields));
        }
        self.drain.deserialize_struct(name, fields, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.drain.deserialize_newtype_struct(name, visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.drain.deserialize_enum(name, variants, visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map
        identifier ignored_any
    }
}
