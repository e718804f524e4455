//! What a prompt gives: messages, each from the user or the assistant,
//! each one part (text, an image, an embedded resource, a link).

use crate::output::media::Part;

/// Who says a prompt's message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// The person.
    User,
    /// The model.
    Assistant,
}

impl Role {
    /// The role as MCP spells it: `"user"`, `"assistant"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// One message of a prompt: who says it, and what (a [`Part`]: text, an
/// image or other media, which MCP sends as an embedded resource unless
/// it is an image or audio, or a link).
///
/// ```
/// use tool_core::output::Image;
/// use tool_core::prompt::{PromptMessage, Role};
///
/// let messages = [
///     PromptMessage::user("Review this diagram."),
///     PromptMessage::user(Image::png(vec![0x89, b'P', b'N', b'G'])),
///     PromptMessage::assistant("I will look at its layers first."),
/// ];
/// assert_eq!(messages[2].role(), Role::Assistant);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PromptMessage {
    role: Role,
    content: Part,
}

impl PromptMessage {
    /// A message from `role`.
    pub fn new(role: Role, content: impl Into<Part>) -> Self {
        Self {
            role,
            content: content.into(),
        }
    }

    /// A message from the user.
    pub fn user(content: impl Into<Part>) -> Self {
        Self::new(Role::User, content)
    }

    /// A message from the assistant.
    pub fn assistant(content: impl Into<Part>) -> Self {
        Self::new(Role::Assistant, content)
    }

    /// Who says it.
    pub fn role(&self) -> Role {
        self.role
    }

    /// What it says.
    pub fn content(&self) -> &Part {
        &self.content
    }
}
