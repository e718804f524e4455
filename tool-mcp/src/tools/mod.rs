//! The tools a server serves: `tools/list` and `tools/call`, and what a
//! call's result and reports become on the wire.

pub(crate) mod answer;
pub(crate) mod call;
pub(crate) mod listing;
pub(crate) mod report;
pub(crate) mod search_finds;
