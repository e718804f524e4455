//! A registry as the hub of many sets of tools, as one test binary: the
//! rules that compose them, merging, changes while calls run, and views.

mod compose;
mod handle;
mod many;
mod view;
