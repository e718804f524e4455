//! Compile-fail and compile-pass cases for `#[tool]` and `#[derive(Elicit)]`.
