//! What a tool may ask of the client that called it, besides the
//! person's answers ([`elicit`](crate::elicit)): a completion of the
//! client's model (MCP's sampling, [`ToolContext::sample`]) and the roots
//! it works in (MCP's roots, [`ToolContext::roots`]). Over MCP, `tool-mcp`
//! names the client of each request ([`ClientRequests`]); elsewhere the
//! application does, with
//! [`ContextBuilder::client`](crate::context::ContextBuilder::client).
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use tool_core::client::{ClientError, ClientRequests, SampleRequest, Sampled};
//! use tool_core::{BoxFuture, ToolContext};
//!
//! /// A model that answers everything the same way.
//! struct Parrot;
//!
//! impl ClientRequests for Parrot {
//!     fn sample<'a>(&'a self, request: &'a SampleRequest) -> BoxFuture<'a, Result<Sampled, ClientError>> {
//!         Box::pin(async { Ok(Sampled::text("parrot-1", "Paris.")) })
//!     }
//! }
//!
//! let ctx = ToolContext::builder(()).client(Parrot).build();
//! let sampled = ctx.sample(SampleRequest::new("The capital of France?").max_tokens(50)).await?;
//! assert_eq!(sampled.as_text(), Some("Paris."));
//! // No client, nothing to ask.
//! let alone = ToolContext::new(());
//! assert!(matches!(alone.roots().await, Err(ClientError::Unsupported { .. })));
//! # Ok::<(), ClientError>(())
//! # }).unwrap();
//! ```

pub use crate::tool::client::{ClientError, ClientRequests, Root, SampleRequest, Sampled};

use crate::tool::context::ToolContext;

impl<Ctx> ToolContext<Ctx> {
    /// Asks the client's model for a completion of `request` (MCP's
    /// sampling: the client may show it to the person, and picks the
    /// model): the model's answer, or why none came. A tool that samples
    /// says so with `#[tool(samples)]`: over MCP, a client that does not
    /// take sampling is refused before such a tool runs.
    pub async fn sample(&self, request: SampleRequest) -> Result<Sampled, ClientError> {
        match self.client() {
            Some(client) => client.sample(&request).await,
            None => Err(ClientError::no_client()),
        }
    }

    /// The roots the client works in (MCP's roots: the folders or
    /// repositories the person opened), or why they cannot be known.
    pub async fn roots(&self) -> Result<Vec<Root>, ClientError> {
        match self.client() {
            Some(client) => client.roots().await,
            None => Err(ClientError::no_client()),
        }
    }
}
