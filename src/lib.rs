//! Examples and integration tests of tool-core and tool-macros; nothing to
//! use from here. The examples of the README and of the guide
//! (`docs/guide/`) compile and run as this crate's doc tests.

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The guide's chapters: their examples compile and run as doc tests too.
#[cfg(doctest)]
pub mod guide {
    #[doc = include_str!("../docs/guide/tools.md")]
    pub struct Tools;
    #[doc = include_str!("../docs/guide/providers.md")]
    pub struct Providers;
    #[doc = include_str!("../docs/guide/stores.md")]
    pub struct Stores;
    #[doc = include_str!("../docs/guide/agent.md")]
    pub struct Agent;
    #[doc = include_str!("../docs/guide/mcp-server.md")]
    pub struct McpServer;
    #[doc = include_str!("../docs/guide/mounts.md")]
    pub struct Mounts;
    #[doc = include_str!("../docs/guide/search.md")]
    pub struct Search;
    #[doc = include_str!("../docs/guide/reference.md")]
    pub struct Reference;
}
