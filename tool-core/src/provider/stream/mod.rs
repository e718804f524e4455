//! Streamed responses, read as they arrive: the model's text as it is
//! written, each tool call as it starts, its arguments as they grow, and
//! the call itself the moment its arguments are whole; at the end, the
//! whole response as the provider would have sent it unstreamed, so that
//! [`Provider::respond`](crate::provider::Provider::respond) and everything
//! after it are the same either way.
//!
//! ```
//! use serde_json::json;
//! use tool_core::provider::Provider;
//! use tool_core::provider::stream::StreamEvent;
//!
//! let provider = Provider::OpenAiChat { strict: false };
//! let mut reader = provider.stream_reader();
//! let mut started = Vec::new();
//! // Bytes as the network gives them, cut anywhere.
//! for chunk in [
//!     &b"data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"tool_calls\":[{\"index\":0,\"id\":\"call_1\","[..],
//!     b"\"type\":\"function\",\"function\":{\"name\":\"add\",\"arguments\":\"{\\\"a\\\":1,\"}}]}}]}\n\n",
//!     b"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"b\\\":2}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n",
//! ] {
//!     for event in reader.feed(chunk).unwrap() {
//!         if let StreamEvent::CallComplete { call, .. } = event {
//!             started.push((call.name().to_owned(), call.arguments().clone()));
//!         }
//!     }
//! }
//! // As OpenAI sends them: the arguments' JSON text, which the registry reads.
//! assert_eq!(started, [("add".to_owned(), json!("{\"a\":1,\"b\":2}"))]);
//! let response = reader.finish().unwrap();
//! assert_eq!(provider.parse_calls(&response).unwrap()[0].id(), Some("call_1"));
//! ```

pub(crate) mod early;
pub(crate) mod event;
pub(crate) mod frame;
pub(crate) mod partial;
pub(crate) mod pieces;
pub(crate) mod reader;
pub(crate) mod replay;

pub use early::StreamedTurn;
pub use event::{ReadStream, StreamEvent};
pub use frame::{Frame, Framing};
pub use reader::{StreamError, StreamReader};

#[cfg(test)]
mod tests;

#[cfg(test)]
mod early_tests;
