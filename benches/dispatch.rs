//! Placeholder replaced by the dispatch benchmark.
fn main() {}
