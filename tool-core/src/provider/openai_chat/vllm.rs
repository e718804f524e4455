//! vLLM's OpenAI-compatible server: OpenAI Chat's shapes and definitions
//! (with `"strict": true` in strict mode, which vLLM holds the model to when
//! it chooses freely), ids `chatcmpl-tool-...`, no allowed subset.

use crate::provider::openai_chat::{Chat, OPENAI};

/// vLLM (`vllm`).
pub(crate) const VLLM: Chat = Chat {
    name: "vllm",
    api: "vLLM",
    response_kind: "vLLM chat completion",
    allowed_subset: false,
    ..OPENAI
};

/// vLLM in strict mode (`vllm-strict`).
pub(crate) const VLLM_STRICT: Chat = Chat {
    name: "vllm-strict",
    strict: true,
    ..VLLM
};
