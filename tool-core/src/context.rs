//! What a call carries beside its arguments: the stable id that names it
//! and the token that cancels it, both read from the
//! [`ToolContext`](crate::ToolContext) the tool runs in.
//!
//! ```
//! use serde_json::json;
//! use tool_core::context::{call_id, CancellationToken};
//! use tool_core::ToolContext;
//!
//! let id = call_id("get_weather", &json!({"city": "Paris"}));
//! let token = CancellationToken::new();
//! let ctx = ToolContext::new(()).with_call_id(id.clone()).with_cancellation(token.clone());
//! assert_eq!(ctx.call_id(), Some(id.as_str()));
//! token.cancel();
//! assert!(ctx.is_cancelled());
//! ```

pub use crate::tool::{CancellationToken, call_id};
