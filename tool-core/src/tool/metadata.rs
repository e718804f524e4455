//! What a tool declares about itself besides its name, description and schema.

use std::borrow::Cow;
use std::time::Duration;

/// How much say the application wants before a tool runs.
///
/// The default is [`ToolTier::Observe`], as for agent-sdk's `TypedTool`: a
/// tool runs when called. Mark the tools that need a person's (or a
/// policy's) yes `#[tool(tier = Confirm)]`: a registry asks its
/// [`ApprovalHook`](crate::policy::ApprovalHook) about each of their calls and,
/// without one, denies them (fail closed). Over MCP, `tool-mcp` asks the
/// person at the client when the client can be asked (elicitation), and
/// otherwise the hook set on the server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ToolTier {
    /// Runs without asking: reading, looking up, computing. The default.
    #[default]
    Observe,
    /// Runs only once the application approves the call.
    Confirm,
}

/// A tool's metadata, each field with one documented default.
///
/// The same defaults apply whether a tool comes from `#[tool]`, implements
/// [`TypedTool`](crate::TypedTool) or [`Tool`](crate::Tool) by hand: both
/// traits return [`ToolMetadata::DEFAULT`] unless overridden, and `#[tool]`
/// starts from it too. The hints follow MCP's tool annotations and mean the
/// same. Build one with `..ToolMetadata::DEFAULT` so that fields added later
/// keep their defaults.
///
/// ```
/// use std::time::Duration;
/// use tool_core::policy::ToolTier;
/// use tool_core::ToolMetadata;
///
/// let meta = ToolMetadata {
///     read_only: true,
///     tier: ToolTier::Confirm,
///     timeout: Some(Duration::from_secs(5)),
///     ..ToolMetadata::DEFAULT
/// };
/// assert!(meta.destructive, "the default stays where nothing was said");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolMetadata {
    /// A human-readable name for interfaces. Default: none.
    pub title: Option<Cow<'static, str>>,
    /// Whether the call needs the application's approval. Default:
    /// [`ToolTier::Observe`], it does not.
    pub tier: ToolTier,
    /// How long a call may run. Default: none, so the registry's own limit
    /// applies.
    pub timeout: Option<Duration>,
    /// The tool does not change its environment, so a batch may run its
    /// calls beside others ([`Batch::Auto`](crate::registry::Batch::Auto)). Default:
    /// `false`.
    pub read_only: bool,
    /// The tool may destroy or overwrite data; meaningful when `read_only` is
    /// `false`. Default: `true`.
    pub destructive: bool,
    /// Calling it twice with the same arguments has no further effect.
    /// Default: `false`.
    pub idempotent: bool,
    /// The tool reaches an open world (the web, other people); `false` for a
    /// closed domain such as a local database. Default: `true`.
    pub open_world: bool,
    /// Several calls of this tool may run at the same time, and a batch may
    /// run its calls beside others ([`Batch::Auto`](crate::registry::Batch::Auto)).
    /// Otherwise its calls take turns. Default: `false`.
    pub concurrency_safe: bool,
    /// The result comes later than the call (the client runs the tool, or the
    /// work finishes in the background). Default: `false`.
    pub long_running: bool,
    /// The tool runs only as a task (with `long_running`): over MCP, a
    /// client that cannot follow a task is refused before it runs
    /// (protocol 2026-07-28: error -32021 naming the tasks extension;
    /// 2025-11-25: the tool is listed with `execution.taskSupport:
    /// "required"`, and a call not made as a task is error -32601). A
    /// call in the process runs as any `long_running` tool's. Default:
    /// `false`.
    pub tasks_only: bool,
    /// What the tool asks (with `long_running` and `asks`) before it first
    /// waits on anything else is asked before its task begins: over MCP
    /// 2026-07-28, a client that takes tasks is answered `input_required`
    /// until those questions (and a `Confirm` tool's approval) are
    /// answered, and only then is given a task, which runs on from there.
    /// A question asked later goes to the task, as any `long_running`
    /// tool's does. A call in the process runs as any `long_running`
    /// tool's. Default: `false`.
    pub asks_first: bool,
    /// The tool asks the person questions while it runs
    /// ([`tool_core::elicit`](crate::elicit)), so each call must be able to
    /// wait for an answer. A tool that asks without saying so fails with
    /// [`ElicitError::Undeclared`](crate::elicit::ElicitError::Undeclared)
    /// (`#[tool]` refuses it at compile time). Default: `false`.
    pub asks: bool,
    /// The tool asks the client's model for completions while it runs
    /// ([`ToolContext::sample`](crate::ToolContext::sample)): over MCP, a
    /// client that does not take sampling is refused before the tool runs
    /// (protocol 2026-07-28: error -32021, naming the capability).
    /// Default: `false`.
    pub samples: bool,
    /// The tool waits to be found: a request that gives the model a tool
    /// search ([`Listing::search`](crate::provider::Listing::search)) sends
    /// its definition for the search to find (Anthropic's and OpenAI's
    /// `defer_loading`) rather than showing it up front; a request without
    /// search lists it as any other. Default: `false`.
    pub defer: bool,
    /// Example inputs, each a whole call's arguments as JSON text, that
    /// show the model how to call the tool (Anthropic's `input_examples`;
    /// the other providers take none and are sent none). Text, so that a
    /// `#[tool]`'s are constants; each is read and checked against the
    /// input schema when the tool is registered. Default: none.
    pub input_examples: Cow<'static, [Cow<'static, str>]>,
    /// The provider streams the tool's arguments as they are written
    /// rather than when they are whole (Anthropic's
    /// `eager_input_streaming`; a streamed input may end in the middle of
    /// a value). Default: `false`.
    pub eager_input_streaming: bool,
    /// Who may call the tool: the model, code the model runs in the
    /// provider's sandbox (programmatic tool calling), or both
    /// (Anthropic's and OpenAI Responses' `allowed_callers`). Default:
    /// [`Callers::Model`](crate::policy::Callers::Model).
    pub callers: Callers,
    /// The scopes a caller must hold. Default: none.
    pub scopes: Cow<'static, [Cow<'static, str>]>,
    /// Labels to pick tools by, for a view of a registry
    /// ([`Select::tags`](crate::toolset::Select::tags)); no model sees
    /// them. Default: none.
    pub tags: Cow<'static, [Cow<'static, str>]>,
}

impl ToolMetadata {
    /// The defaults of every field, usable in `const` context.
    pub const DEFAULT: ToolMetadata = ToolMetadata {
        title: None,
        tier: ToolTier::Observe,
        timeout: None,
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: true,
        concurrency_safe: false,
        long_running: false,
        tasks_only: false,
        asks_first: false,
        asks: false,
        samples: false,
        defer: false,
        input_examples: Cow::Borrowed(&[]),
        eager_input_streaming: false,
        callers: Callers::Model,
        scopes: Cow::Borrowed(&[]),
        tags: Cow::Borrowed(&[]),
    };
}

/// Who may call a tool ([`ToolMetadata::callers`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Callers {
    /// The model, in its turn: every provider's way.
    #[default]
    Model,
    /// Only code the model runs in the provider's sandbox (Anthropic's
    /// `code_execution_20260120`, OpenAI's `programmatic`); the model does
    /// not call it in its turn.
    Code,
    /// Both. The providers advise choosing one.
    ModelAndCode,
}

impl Default for ToolMetadata {
    fn default() -> Self {
        Self::DEFAULT
    }
}
