//! How Ollama's messages differ from OpenAI Chat's.

use crate::provider::openai_chat::server::{ChatServer, OPENAI_SERVER};

/// How Ollama's messages differ from OpenAI's (docs/providers.md 11.2).
pub(crate) const OLLAMA_SERVER: ChatServer = ChatServer {
    message_field: true,
    tool_name_field: Some("tool_name"),
    id_only_when_given: true,
    images_field: true,
    ..OPENAI_SERVER
};
