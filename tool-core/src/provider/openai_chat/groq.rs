//! Groq's Chat Completions (`https://api.groq.com/openai/v1`,
//! docs/providers.md 11.1): OpenAI Chat's shapes, without `strict` (Groq's
//! strict mode is for structured outputs, which do not combine with tool
//! use) and without an allowed subset; each result names its tool (`name`),
//! as Groq's documentation sends it; the model's message goes back with only
//! the fields Groq takes, since Groq refuses a request with any other.

use crate::provider::openai_chat::server::{ChatServer, OPENAI_SERVER};
use crate::provider::openai_chat::{Chat, OPENAI};

/// Groq (`groq`).
pub(crate) const GROQ: Chat = Chat {
    name: "groq",
    api: "Groq",
    response_kind: "Groq chat completion",
    says_strict: false,
    allowed_subset: false,
    server: ChatServer {
        turn_fields: Some(&[
            "role",
            "content",
            "name",
            "reasoning",
            "tool_calls",
            "function_call",
        ]),
        tool_name_field: Some("name"),
        ..OPENAI_SERVER
    },
    ..OPENAI
};
