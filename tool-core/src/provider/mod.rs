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

mod anthropic;
mod call;
mod choice;
mod definitions;
mod extras;
mod family;
mod gemini;
mod listing;
pub mod mcp;
mod not_strict;
mod ollama;
mod openai_chat;
mod openai_responses;
mod parts;
mod selector;
mod stored_turn;
pub mod stream;
mod turn;

pub use call::ProviderCall;
pub use choice::{ChoiceError, ToolChoice};
pub use definitions::Definitions;
#[cfg(feature = "tokens")]
pub use definitions::ToolTokens;
pub(crate) use definitions::build_definitions;
pub use family::{Family, ListState, Parameters};
pub(crate) use listing::SEARCH_TOOL;
pub use listing::{Listing, Search};
pub use not_strict::{Blocker, NotStrict};
pub use selector::{CustomFamily, ParseError, Provider, UnknownProvider};
pub use turn::{Turn, Waiting};
