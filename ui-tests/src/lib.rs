//! Compile-fail and compile-pass cases for `#[tool]`.
