//! Prompts: message templates a server offers its clients' users (MCP's
//! `prompts/list` and `prompts/get`), each named, with arguments, giving
//! the messages to start a conversation with. A [`Prompt`] is one;
//! [`Prompts`] holds a server's.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use tool_core::prompt::{Prompt, PromptArgument, PromptArguments, PromptError, PromptMessage, Prompts};
//! use tool_core::{BoxFuture, ToolContext};
//!
//! /// Review a change.
//! struct Review;
//!
//! impl Prompt for Review {
//!     fn name(&self) -> &str { "review" }
//!     fn description(&self) -> &str { "Review a change." }
//!     fn arguments(&self) -> Vec<PromptArgument> {
//!         vec![PromptArgument::required("diff", "The change, as a diff.")]
//!     }
//!     fn get<'a>(
//!         &'a self,
//!         _ctx: &'a ToolContext,
//!         arguments: &'a PromptArguments,
//!     ) -> BoxFuture<'a, Result<Vec<PromptMessage>, PromptError>> {
//!         Box::pin(async move {
//!             Ok(vec![PromptMessage::user(format!("Review this change:\n{}", arguments["diff"]))])
//!         })
//!     }
//! }
//!
//! let prompts = Prompts::new().with(Review);
//! let ctx = ToolContext::new(());
//! let arguments = PromptArguments::from([("diff".to_owned(), "-a\n+b".to_owned())]);
//! let messages = prompts.messages(&ctx, "review", &arguments).await.unwrap();
//! assert_eq!(messages.len(), 1);
//! let missing = prompts.messages(&ctx, "review", &PromptArguments::new()).await.unwrap_err();
//! assert_eq!(missing.to_string(), "prompt `review` needs the argument `diff`");
//! # });
//! ```

pub(crate) mod expansion;
pub(crate) mod output;
pub(crate) mod prompts;

pub use crate::prompt::output::IntoPromptMessages;
pub use crate::prompt::prompts::{
    DuplicatePrompt, Prompt, PromptArgument, PromptArguments, PromptError, Prompts,
};
pub use crate::tool::message::{PromptMessage, Role};
