//! How a server of the Chat family differs from OpenAI's own in its
//! messages, as data: what its look-alikes, and Ollama, set.

/// How a server of the OpenAI Chat family differs from OpenAI's own Chat
/// Completions in the calls it sends and the messages it takes back
/// (docs/providers.md 11); the definitions' differences are the dialect's.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ChatServer {
    /// Whether a whole response may hold the assistant message under
    /// `message` (Ollama's `/api/chat`), as well as under
    /// `choices[0].message`.
    pub(crate) message_field: bool,
    /// The fields of the assistant message that the server takes back in a
    /// request, when it refuses others (Groq); `None` takes the message as
    /// it came.
    pub(crate) turn_fields: Option<&'static [&'static str]>,
    /// The field of a `tool` message that names the tool called (Groq's
    /// `name`, Ollama's `tool_name`), when the server's documentation sends
    /// one.
    pub(crate) tool_name_field: Option<&'static str>,
    /// Whether a `tool` message leaves out `tool_call_id` for a call that
    /// came without an id (Ollama before 0.12.10), rather than send it
    /// empty.
    pub(crate) id_only_when_given: bool,
    /// Whether a `user` message carries images in its own `images` field,
    /// as base64 (Ollama's `/api/chat`), rather than as content parts.
    pub(crate) images_field: bool,
}

/// OpenAI's own Chat Completions, and vLLM, which speaks it as it is.
pub(crate) const OPENAI_SERVER: ChatServer = ChatServer {
    message_field: false,
    turn_fields: None,
    tool_name_field: None,
    id_only_when_given: false,
    images_field: false,
};
