//! How a registry holds a tool: what it says about itself, read once, and
//! the one function that starts it.
//!
//! Only that function needs the tool's own types (its input, its function,
//! its output); everything around it (arguments, validation, policy,
//! timeouts, panics, events, output) is compiled once, in the pipeline. A
//! `#[tool]` gives a plain function pointer; a hand-written tool is reached
//! through [`Prepare`].

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use serde_json::{Map, Value};

use crate::BoxFuture;
use crate::dispatch::read::{Arguments, RunAtOnce};
use crate::error::tool_error::ToolError;
use crate::output::result::ToolResult;
use crate::tool::context::ToolContext;
use crate::tool::metadata::ToolMetadata;

/// A tool once started: its result, or what is left to run, which may
/// borrow the call's context (`'c`): a call that runs where it was made
/// lends the tool its context for the length of the run, and only a run
/// that goes on in a task of its own is given one it owns.
#[doc(hidden)]
pub enum Started<'c> {
    /// It ran at once.
    Done(ToolResult),
    /// A plain function's run, left for once the call may go on.
    Call(Box<dyn FnOnce() -> ToolResult + Send + 'c>),
    /// An `async` tool's run.
    Wait(BoxFuture<'c, ToolResult>),
    /// An `async` tool's run, polled once where it started: it waits.
    Polled(BoxFuture<'c, ToolResult>),
}

impl<'c> Started<'c> {
    /// Runs `run` now if it may, or leaves it for later.
    #[inline]
    pub fn call(now: RunAtOnce<'_>, run: impl FnOnce() -> ToolResult + Send + 'c) -> Self {
        if now.at_once {
            Started::Done(run())
        } else {
            Started::Call(Box::new(run))
        }
    }

    /// The same for a tool that reads its context, which the run left for
    /// later takes with it.
    pub fn call_with<C: Send + Sync + 'static>(
        ctx: Cow<'c, ToolContext<C>>,
        now: RunAtOnce<'_>,
        run: impl FnOnce(&ToolContext<C>) -> ToolResult + Send + 'c,
    ) -> Self {
        if now.at_once {
            Started::Done(run(&ctx))
        } else {
            Started::Call(Box::new(move || run(&ctx)))
        }
    }

    /// An `async` run, to be awaited: polled once here if it may run at
    /// once.
    pub fn wait(now: RunAtOnce<'_>, run: impl Future<Output = ToolResult> + Send + 'c) -> Self {
        Self::wait_boxed(now, Box::pin(run))
    }

    /// [`wait`](crate::registry::Pending::wait) once the run is boxed: compiled once, not per
    /// tool.
    #[inline(never)]
    fn wait_boxed(now: RunAtOnce<'_>, mut run: BoxFuture<'c, ToolResult>) -> Self {
        match first_poll(now, run.as_mut()) {
            Some(Poll::Ready(result)) => Started::Done(result),
            Some(Poll::Pending) => Started::Polled(run),
            None => Started::Wait(run),
        }
    }

    /// An `async` function's future, its output made the result by
    /// `finish`, a plain function: polled once here if it may run at once,
    /// and only a run that waits is wrapped to convert its output later
    /// (a future compiled once per output type, not per tool).
    pub fn finish<F>(now: RunAtOnce<'_>, run: F, finish: fn(F::Output) -> ToolResult) -> Self
    where
        F: Future + Send + 'static,
        F::Output: 'static,
    {
        finish_boxed(now, Box::pin(run), finish)
    }
}

/// [`Started::finish`] once the run is boxed: compiled once per output
/// type, not per tool.
#[inline(never)]
fn finish_boxed<R: 'static>(
    now: RunAtOnce<'_>,
    mut run: BoxFuture<'static, R>,
    finish: fn(R) -> ToolResult,
) -> Started<'static> {
    let polled = match first_poll(now, run.as_mut()) {
        Some(Poll::Ready(output)) => return Started::Done(finish(output)),
        Some(Poll::Pending) => true,
        None => false,
    };
    let run = Box::pin(Finish { run, finish });
    if polled {
        Started::Polled(run)
    } else {
        Started::Wait(run)
    }
}

/// The first poll of a run that may run at once, with the call's waker;
/// `None` when it may not.
fn first_poll<T>(
    now: RunAtOnce<'_>,
    run: Pin<&mut (dyn Future<Output = T> + Send + '_)>,
) -> Option<Poll<T>> {
    match now {
        RunAtOnce {
            at_once: true,
            waker: Some(waker),
        } => Some(run.poll(&mut Context::from_waker(waker))),
        _ => None,
    }
}

/// A future whose output becomes a tool's result: compiled once per output
/// type, not per tool.
struct Finish<R> {
    run: BoxFuture<'static, R>,
    finish: fn(R) -> ToolResult,
}

impl<R> Future for Finish<R> {
    type Output = ToolResult;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<ToolResult> {
        self.run.as_mut().poll(cx).map(self.finish)
    }
}

/// What starts a `#[tool]` that does not read its context: read the
/// arguments, then run (at once if `now` and it can).
#[doc(hidden)]
pub type Start = fn(Arguments<'_>) -> Result<Started<'static>, ToolError>;

/// The same for a `#[tool]` that reads a `ToolContext<C>`: its run may
/// borrow the context it is given.
#[doc(hidden)]
pub type StartWith<C> =
    for<'c> fn(Cow<'c, ToolContext<C>>, Arguments<'_>) -> Result<Started<'c>, ToolError>;

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
    fn start<'c>(
        &self,
        ctx: Cow<'c, ToolContext<Ctx>>,
        args: Arguments<'_>,
    ) -> Result<Started<'c>, ToolError>;

    /// Whether the tool can run for this caller now.
    fn check_available(&self, ctx: &ToolContext<Ctx>) -> Result<(), String>;
}

/// How a registered tool starts.
pub(crate) enum Runner<Ctx> {
    Free(Start),
    With(StartWith<Ctx>),
    Dyn(Arc<dyn Prepare<Ctx>>),
    /// A tool with arguments the application sets (`Compose::bind`).
    Bound(Arc<Bound<Ctx>>),
}

// Not derived: that would ask `Ctx: Clone`.
impl<Ctx> Clone for Runner<Ctx> {
    fn clone(&self) -> Self {
        match self {
            Runner::Free(start) => Runner::Free(*start),
            Runner::With(start) => Runner::With(*start),
            Runner::Dyn(tool) => Runner::Dyn(Arc::clone(tool)),
            Runner::Bound(bound) => Runner::Bound(Arc::clone(bound)),
        }
    }
}

impl<Ctx> Runner<Ctx> {
    /// Starts the tool; `ctx` is made only for a tool that sees it.
    #[inline(always)]
    pub(crate) fn start<'c>(
        &self,
        ctx: impl FnOnce() -> Cow<'c, ToolContext<Ctx>>,
        args: Arguments<'_>,
    ) -> Result<Started<'c>, ToolError>
    where
        Ctx: 'c,
    {
        match self {
            Runner::Free(start) => start(args),
            Runner::With(start) => start(ctx(), args),
            Runner::Dyn(tool) => tool.start(ctx(), args),
            Runner::Bound(bound) => bound.start(ctx, args),
        }
    }

    pub(crate) fn check_available(&self, ctx: &ToolContext<Ctx>) -> Result<(), String> {
        match self {
            Runner::Dyn(tool) => tool.check_available(ctx),
            Runner::Bound(bound) => bound.inner.check_available(ctx),
            Runner::Free(_) | Runner::With(_) => Ok(()),
        }
    }
}

/// A tool with arguments the application sets (`Compose::bind`): its own
/// start, given them (`dispatch/bound.rs`).
pub(crate) struct Bound<Ctx> {
    pub(crate) inner: Runner<Ctx>,
    /// Each bound argument and its value.
    pub(crate) values: Map<String, Value>,
}

impl<Ctx> Bound<Ctx> {
    /// Starts the tool on the call's arguments with the bound ones in.
    pub(crate) fn start<'c>(
        &self,
        ctx: impl FnOnce() -> Cow<'c, ToolContext<Ctx>>,
        args: Arguments<'_>,
    ) -> Result<Started<'c>, ToolError>
    where
        Ctx: 'c,
    {
        args.with_inserted(&self.values, |args| self.inner.start(ctx, args))
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

/// Where a tool's schemas come from.
pub(crate) enum SchemaSource {
    /// A hand-written tool's, read from it.
    Given { input: Value, output: Option<Value> },
    /// A `#[tool]`'s functions, made once per process and kept under the
    /// address of the tool's `static` facts (each `#[tool]` has its own).
    Compiled {
        facts: &'static Facts,
        input: fn() -> Value,
        output: fn() -> Option<Value>,
        /// Whether `input` is derived from the types the tool reads.
        derived: bool,
    },
}
