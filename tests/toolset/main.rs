//! A registry as the hub of many sets of tools, as one test binary: the
//! rules that compose them, merging, and changes while calls run.

mod compose;
mod handle;
