//! Resources: what a server lets its clients read by URI (MCP's
//! `resources/list`, `resources/templates/list` and `resources/read`):
//! files, records, the state of something. A [`Resource`] is one URI, or a
//! family of URIs named by a [`UriTemplate`] (`repo://{owner}/{name}`);
//! [`Resources`] holds a server's, and reads a URI with the resource it
//! names.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use tool_core::resource::{Resource, ResourceContents, ResourceError, ResourceRead, Resources};
//! use tool_core::{BoxFuture, ToolContext};
//!
//! /// A user's profile, by id.
//! struct Profile;
//!
//! impl Resource for Profile {
//!     fn uri(&self) -> &str { "users://{id}/profile" }
//!     fn name(&self) -> &str { "profile" }
//!     fn description(&self) -> &str { "A user's profile, by id." }
//!     fn mime_type(&self) -> Option<&str> { Some("application/json") }
//!     fn read<'a>(
//!         &'a self,
//!         _ctx: &'a ToolContext,
//!         read: &'a ResourceRead,
//!     ) -> BoxFuture<'a, Result<Vec<ResourceContents>, ResourceError>> {
//!         Box::pin(async move {
//!             let id = read.param("id").unwrap_or_default();
//!             Ok(vec![ResourceContents::text(read.uri(), format!("{{\"id\":\"{id}\"}}"))])
//!         })
//!     }
//! }
//!
//! let resources = Resources::new().with(Profile);
//! let ctx = ToolContext::new(());
//! let contents = resources.read(&ctx, "users://7/profile").await.unwrap();
//! assert_eq!(contents[0].as_text(), Some("{\"id\":\"7\"}"));
//! assert!(resources.read(&ctx, "users://7").await.is_err());
//! # });
//! ```

pub(crate) mod contents;
pub(crate) mod expansion;
pub(crate) mod output;
pub(crate) mod resources;
pub(crate) mod template;

pub use crate::resource::contents::ResourceContents;
pub use crate::resource::output::IntoResourceContents;
pub use crate::resource::resources::{Resource, ResourceError, ResourceRead, Resources};
pub use crate::resource::template::{UriTemplate, UriTemplateError};
