//! What a call carries beside its arguments: the id that names it, whose
//! it is (the caller and the conversation), and the token that cancels it,
//! all read from the [`ToolContext`](crate::ToolContext) the tool runs in;
//! and the content hash that compares calls by what they ask.
//!
//! ```
//! use tool_core::context::CancellationToken;
//! use tool_core::ToolContext;
//!
//! let token = CancellationToken::new();
//! let ctx = ToolContext::builder(())
//!     .caller("user:7")
//!     .conversation("conversation:42")
//!     .call_id("toolu_1")
//!     .cancellation(token.clone())
//!     .build();
//! assert_eq!(ctx.caller(), Some("user:7"));
//! assert_eq!(ctx.conversation(), Some("conversation:42"));
//! assert_eq!(ctx.call_id(), Some("toolu_1"));
//! token.cancel();
//! assert!(ctx.is_cancelled());
//! ```

pub(crate) mod builder;

pub use crate::context::builder::ContextBuilder;
pub use crate::tool::call_id::content_hash;
pub use tokio_util::sync::CancellationToken;
