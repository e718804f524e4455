//! The providers a registry speaks to: their tool definitions, the tool
//! calls in their responses, and the shape of the results they take back.
//!
//! [`Provider`] names one; each is a [`Family`], whose code lives in a
//! folder of its own here (`openai_chat/` with its look-alikes,
//! `openai_responses/`, `anthropic/`, `gemini/`, `ollama/`, `mcp/`). What
//! every family shares (a call as a provider sends it, the definitions'
//! driver and cache, a turn, the stream's framing) lives beside them and
//! imports no family; the selector (`selector.rs`) is the one place that
//! names them all.

pub(crate) mod anthropic;
pub(crate) mod call;
pub(crate) mod choice;
pub(crate) mod definitions;
pub(crate) mod extras;
pub(crate) mod family;
pub(crate) mod gemini;
pub(crate) mod listing;
pub mod mcp;
pub(crate) mod not_strict;
pub(crate) mod object;
pub(crate) mod ollama;
pub(crate) mod openai_chat;
pub(crate) mod openai_responses;
pub(crate) mod parts;
pub(crate) mod selector;
pub(crate) mod stored_turn;
pub mod stream;
pub(crate) mod tool_list;
pub(crate) mod turn;

pub use call::ProviderCall;
pub use choice::{ChoiceError, ToolChoice};
pub use definitions::Definitions;
#[cfg(feature = "tokens")]
pub use definitions::ToolTokens;
pub use family::{Family, ListState, Parameters};
pub use listing::{Listing, Search};
pub use not_strict::{Blocker, NotStrict};
pub use selector::{CustomFamily, ParseError, Provider, UnknownProvider};
pub use tool_list::ToolList;
pub use turn::{Turn, Waiting};
