//! What is asked of a client and what it answers: a sampling request and
//! its completion, the client's roots, and why no answer came.

use std::fmt;

use crate::BoxFuture;
use crate::output::media::Part;
use crate::tool::message::{PromptMessage, Role};

/// The client that called, as a tool reaches it: its model, and its
/// roots. Each request's own, named by whoever serves it (`tool-mcp`, for
/// an MCP client).
pub trait ClientRequests: Send + Sync + 'static {
    /// Asks the client's model for a completion of `request`.
    fn sample<'a>(
        &'a self,
        request: &'a SampleRequest,
    ) -> BoxFuture<'a, Result<Sampled, ClientError>>;

    /// The client's roots. Default: the client has none to give.
    fn roots(&self) -> BoxFuture<'_, Result<Vec<Root>, ClientError>> {
        Box::pin(std::future::ready(Err(ClientError::Unsupported {
            reason: "the client gives no roots".to_owned(),
        })))
    }
}

/// A completion asked of the client's model: the conversation so far,
/// the system prompt, and how long an answer may be.
///
/// ```
/// use tool_core::client::SampleRequest;
/// use tool_core::prompt::PromptMessage;
///
/// let request = SampleRequest::new("Summarise: the build broke twice.")
///     .system("You write one-line summaries.")
///     .max_tokens(60);
/// assert_eq!(request.max_tokens_or_default(), 60);
/// let longer = SampleRequest::conversation([
///     PromptMessage::user("Name a colour."),
///     PromptMessage::assistant("Blue."),
///     PromptMessage::user("Another."),
/// ]);
/// assert_eq!(longer.messages().len(), 3);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SampleRequest {
    messages: Vec<PromptMessage>,
    system: Option<String>,
    max_tokens: Option<u32>,
    key: Option<String>,
}

impl SampleRequest {
    /// How many tokens an answer may take unless [`SampleRequest::max_tokens`]
    /// says otherwise: 1,000.
    pub const DEFAULT_MAX_TOKENS: u32 = 1_000;

    /// One message from the user.
    pub fn new(text: impl Into<String>) -> Self {
        Self::conversation([PromptMessage::user(text.into())])
    }

    /// A conversation so far, the model to answer its last message.
    pub fn conversation(messages: impl IntoIterator<Item = PromptMessage>) -> Self {
        Self {
            messages: messages.into_iter().collect(),
            system: None,
            max_tokens: None,
            key: None,
        }
    }

    /// The same request, with a system prompt.
    #[must_use]
    pub fn system(mut self, system: impl Into<String>) -> Self {
        self.system = Some(system.into());
        self
    }

    /// The same request, an answer at most `tokens` long.
    #[must_use]
    pub fn max_tokens(mut self, tokens: u32) -> Self {
        self.max_tokens = Some(tokens);
        self
    }

    /// The same request, named: over MCP 2026-07-28, the key of its
    /// `inputRequests` entry, which the client answers under. Unnamed, a
    /// request is the `sampling-1`, `sampling-2`, ... of its call, in the
    /// order made.
    #[must_use]
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// Its name, if [`SampleRequest::key`] gave it one.
    pub fn key_name(&self) -> Option<&str> {
        self.key.as_deref()
    }

    /// The messages.
    pub fn messages(&self) -> &[PromptMessage] {
        &self.messages
    }

    /// The system prompt, if any.
    pub fn system_prompt(&self) -> Option<&str> {
        self.system.as_deref()
    }

    /// The longest answer, in tokens.
    pub fn max_tokens_or_default(&self) -> u32 {
        self.max_tokens.unwrap_or(Self::DEFAULT_MAX_TOKENS)
    }
}

/// What the client's model answered: its message, the model, and why it
/// stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct Sampled {
    /// The answer: text, mostly.
    pub content: Part,
    /// Who said it (`assistant`, mostly).
    pub role: Role,
    /// The model that answered.
    pub model: String,
    /// Why it stopped (`endTurn`, `maxTokens`, ...), when the client says.
    pub stop_reason: Option<String>,
}

impl Sampled {
    /// A text answer of `model`'s.
    pub fn text(model: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            content: Part::Text(text.into()),
            role: Role::Assistant,
            model: model.into(),
            stop_reason: None,
        }
    }

    /// The answer's text, when it is text.
    pub fn as_text(&self) -> Option<&str> {
        match &self.content {
            Part::Text(text) => Some(text),
            _ => None,
        }
    }
}

/// A root the client works in: a URI (`file:///home/ada/project`) and
/// its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Root {
    /// Where it is.
    pub uri: String,
    /// What the client calls it.
    pub name: Option<String>,
}

/// Why the client gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClientError {
    /// The client cannot be asked this (it did not declare the
    /// capability, or no client called).
    Unsupported {
        /// Why, for the tool and its model.
        reason: String,
    },
    /// The client refused or failed.
    Failed {
        /// What it said.
        message: String,
    },
}

impl ClientError {
    pub(crate) fn no_client() -> Self {
        ClientError::Unsupported {
            reason: "no client to ask: the call was not made by an MCP client (or the \
                     application named none with ContextBuilder::client)"
                .to_owned(),
        }
    }
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Unsupported { reason } => {
                write!(f, "the client cannot be asked: {reason}")
            }
            ClientError::Failed { message } => write!(f, "the client did not answer: {message}"),
        }
    }
}

impl std::error::Error for ClientError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::context::ToolContext;

    #[tokio::test]
    async fn a_context_with_no_client_says_why_it_cannot_ask() {
        let ctx = ToolContext::new(());
        let refused = ctx.sample(SampleRequest::new("hi")).await.unwrap_err();
        assert_eq!(
            refused.to_string(),
            "the client cannot be asked: no client to ask: the call was not made by an MCP \
             client (or the application named none with ContextBuilder::client)"
        );
        assert_eq!(SampleRequest::new("hi").max_tokens_or_default(), 1_000);
    }
}
