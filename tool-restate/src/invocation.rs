//! What the context function is told of an invocation.

use restate_sdk::context::HeaderMap;

/// One invocation of a tool's handler, as Restate delivered it: what an
/// application makes the tool's [`ToolContext`](tool_core::ToolContext)
/// from (its caller from a header, say).
#[derive(Clone, Copy, Debug)]
pub struct Invocation<'a> {
    id: &'a str,
    tool: &'a str,
    headers: &'a HeaderMap,
}

impl<'a> Invocation<'a> {
    pub(crate) fn new(id: &'a str, tool: &'a str, headers: &'a HeaderMap) -> Self {
        Self { id, tool, headers }
    }

    /// Restate's id of the invocation (`inv_...`): the same on every
    /// attempt, and for every call sent with the same `idempotency-key`.
    /// (Restate 1.7 does not hand the `idempotency-key` itself to the
    /// handler; this id stands for it.)
    pub fn id(&self) -> &'a str {
        self.id
    }

    /// The tool called: the handler's name.
    pub fn tool(&self) -> &'a str {
        self.tool
    }

    /// The value of the request's header `name`, if it has one Restate
    /// passed on (it keeps `idempotency-key` to itself).
    pub fn header(&self, name: &str) -> Option<&'a str> {
        self.headers.get(name).map(String::as_str)
    }
}
