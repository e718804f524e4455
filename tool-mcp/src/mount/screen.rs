//! What the application checks of a mounted server's text before the
//! model reads it ([`Screen`]): each tool as the server lists it (its
//! description kept, rewritten, or the tool refused) and each call's
//! result as the server returns it (kept, rewritten, or an error the model
//! reads instead).

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

use rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
use serde_json::Value;

/// The application's check of what a mounted server says, before the
/// model reads it: a tool's description and a call's result are the
/// server's own text, and a hostile server writes there what a model may
/// take for an instruction ("Use this instead of `bank_transfer`",
/// `<tool_call>` markup, "SYSTEM:" lines).
///
/// Both methods keep what they are given by default: implement the one
/// you need. Each returns `Ok(())` to let what it saw through, as it left
/// it (rewritten or not), or `Err(reason)` to stop it: a tool refused is
/// left out of the registry and named in
/// [`Mounted::refused`](super::Mounted::refused) with `reason`; a result
/// stopped is an error result whose text, which the model reads, is
/// `reason`. A mount runs its screens in the order given
/// ([`Mount::screen`](super::Mount::screen)); the first to stop something
/// ends it there. A screen that panics on a tool refuses it, and on a
/// result ends the call as a tool that panics does.
///
/// Screens see what the mount's own bounds let through (a description
/// within [`Mount::max_description_bytes`](super::Mount::max_description_bytes),
/// a result within [`Mount::max_result_bytes`](super::Mount::max_result_bytes)),
/// and each tool by the name the server gave it, before the mount's
/// [`Compose`](tool_core::toolset::Compose) rules rename it or describe it
/// anew. They run on every list the server sends (the first, each
/// `notifications/tools/list_changed`, and after the server is started
/// again) and on every call's result, a task's included.
///
/// ```
/// use tool_mcp::mount::{CallResult, ListedTool, Mount, Screen};
///
/// /// Keeps descriptions to what a tool does, and results to text.
/// struct NoImpersonation;
///
/// impl Screen for NoImpersonation {
///     fn tool(&self, tool: &mut ListedTool<'_>) -> Result<(), String> {
///         if tool.description().contains("SYSTEM:") {
///             return Err("its description speaks as the system".into());
///         }
///         if tool.description().contains("instead of") {
///             let name = tool.name().to_owned();
///             tool.set_description(format!("The server's tool `{name}`."));
///         }
///         Ok(())
///     }
///
///     fn result(&self, result: &mut CallResult<'_>) -> Result<(), String> {
///         for text in result.texts_mut() {
///             if text.contains("<tool_call>") {
///                 *text = "[withheld: it held tool-call markup]".into();
///             }
///         }
///         Ok(())
///     }
/// }
///
/// let mount = Mount::http("search", "http://127.0.0.1:8080/mcp").screen(NoImpersonation);
/// # drop(mount);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a `Screen` of a mounted server's text",
    note = "implement `tool_mcp::mount::Screen` (its `tool`, its `result`, or both), or pass a closure to `Mount::screen_tools` or `Mount::screen_results`"
)]
pub trait Screen: Send + Sync + 'static {
    /// Sees each tool as the server lists it, before it joins the
    /// registry: `Ok(())` mounts it with its description as `tool` holds
    /// it then, `Err(reason)` leaves it out
    /// ([`Mounted::refused`](super::Mounted::refused) names it with
    /// `reason`).
    fn tool(&self, tool: &mut ListedTool<'_>) -> Result<(), String> {
        let _ = tool;
        Ok(())
    }

    /// Sees each call's result as the server returns it, before it
    /// becomes the tool's result: `Ok(())` lets it through as `result`
    /// holds it then, `Err(text)` makes the call an error result whose
    /// text is `text`. A call the server refuses (a JSON-RPC error) is
    /// seen too, as an error result holding the server's message.
    fn result(&self, result: &mut CallResult<'_>) -> Result<(), String> {
        let _ = result;
        Ok(())
    }
}

/// A tool as a mounted server lists it, for a [`Screen`] to look at: its
/// description may be rewritten; the rest is as the server sent it.
#[derive(Debug)]
pub struct ListedTool<'a> {
    pub(crate) server: &'a str,
    pub(crate) name: &'a str,
    pub(crate) title: Option<&'a str>,
    pub(crate) description: &'a mut String,
    pub(crate) input_schema: &'a Value,
    pub(crate) output_schema: Option<&'a Value>,
}

impl ListedTool<'_> {
    /// The mount's name for the server.
    pub fn server(&self) -> &str {
        self.server
    }

    /// The tool's name, as the server gave it.
    pub fn name(&self) -> &str {
        self.name
    }

    /// The tool's title, when the server gave one.
    pub fn title(&self) -> Option<&str> {
        self.title
    }

    /// The description the model will read (the server's, unless a
    /// screen before this one rewrote it).
    pub fn description(&self) -> &str {
        self.description
    }

    /// The description the model reads instead of the server's.
    pub fn set_description(&mut self, description: impl Into<String>) {
        *self.description = description.into();
    }

    /// The JSON Schema of the tool's arguments.
    pub fn input_schema(&self) -> &Value {
        self.input_schema
    }

    /// The JSON Schema of the tool's structured result, when the server
    /// gave one.
    pub fn output_schema(&self) -> Option<&Value> {
        self.output_schema
    }
}

/// A call's result as a mounted server returned it, for a [`Screen`] to
/// look at and rewrite before it becomes the tool's result.
#[derive(Debug)]
pub struct CallResult<'a> {
    pub(crate) server: &'a str,
    pub(crate) tool: &'a str,
    pub(crate) called_as: &'a str,
    pub(crate) result: &'a mut CallToolResult,
}

impl CallResult<'_> {
    /// The mount's name for the server.
    pub fn server(&self) -> &str {
        self.server
    }

    /// The tool called, by the name the server gave it.
    pub fn tool(&self) -> &str {
        self.tool
    }

    /// The tool called, by the name the model called it (after the
    /// mount's rules).
    pub fn called_as(&self) -> &str {
        self.called_as
    }

    /// Whether the server answered with an error (`isError`).
    pub fn is_error(&self) -> bool {
        self.result.is_error == Some(true)
    }

    /// Every text of the result the model reads: each text block's, and
    /// each embedded text resource's. The structured content and
    /// anything else are in [`result_mut`](Self::result_mut).
    pub fn texts_mut(&mut self) -> impl Iterator<Item = &mut String> {
        self.result
            .content
            .iter_mut()
            .filter_map(|block| match block {
                ContentBlock::Text(text) => Some(&mut text.text),
                ContentBlock::Resource(embedded) => match &mut embedded.resource {
                    ResourceContents::TextResourceContents { text, .. } => Some(text),
                    _ => None,
                },
                _ => None,
            })
    }

    /// Makes the result one text, `text`, in place of all it held (its
    /// structured content too); an error stays an error.
    pub fn set_text(&mut self, text: impl Into<String>) {
        self.result.content = vec![ContentBlock::text(text)];
        self.result.structured_content = None;
    }

    /// The result as the server sent it, in rmcp's model.
    pub fn result(&self) -> &CallToolResult {
        self.result
    }

    /// The result as the server sent it, in rmcp's model, to change as
    /// a whole: its content blocks, structured content, `isError`.
    pub fn result_mut(&mut self) -> &mut CallToolResult {
        self.result
    }
}

/// A [`Screen`] of tools alone, from a closure
/// ([`Mount::screen_tools`](super::Mount::screen_tools)).
pub(crate) struct ToolsWith<F>(pub(crate) F);

impl<F> Screen for ToolsWith<F>
where
    F: Fn(&mut ListedTool<'_>) -> Result<(), String> + Send + Sync + 'static,
{
    fn tool(&self, tool: &mut ListedTool<'_>) -> Result<(), String> {
        (self.0)(tool)
    }
}

/// A [`Screen`] of results alone, from a closure
/// ([`Mount::screen_results`](super::Mount::screen_results)).
pub(crate) struct ResultsWith<F>(pub(crate) F);

impl<F> Screen for ResultsWith<F>
where
    F: Fn(&mut CallResult<'_>) -> Result<(), String> + Send + Sync + 'static,
{
    fn result(&self, result: &mut CallResult<'_>) -> Result<(), String> {
        (self.0)(result)
    }
}

/// A mount's screens, in the order given.
#[derive(Default)]
pub(crate) struct Screens(Vec<Box<dyn Screen>>);

impl Screens {
    pub(crate) fn push(&mut self, screen: impl Screen) {
        self.0.push(Box::new(screen));
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `tool` through each screen, until one refuses it. A screen that
    /// panics refuses it: the mount goes on following the server.
    pub(crate) fn tool(&self, tool: &mut ListedTool<'_>) -> Result<(), String> {
        self.0.iter().try_for_each(|screen| {
            catch_unwind(AssertUnwindSafe(|| screen.tool(tool)))
                .unwrap_or_else(|_| Err("the mount's screen panicked on it".to_owned()))
        })
    }

    /// `result` through each screen, until one stops it. (A panic is the
    /// call's, which the registry turns into an error result.)
    pub(crate) fn result(&self, result: &mut CallResult<'_>) -> Result<(), String> {
        self.0.iter().try_for_each(|screen| screen.result(result))
    }
}

impl fmt::Debug for Screens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Screens({})", self.0.len())
    }
}
