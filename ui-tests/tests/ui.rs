//! Compile-fail and compile-pass cases of `#[tool]`, `#[resource]`,
//! `#[prompt]` and `#[derive(Elicit)]`, one rule per file.
//!
//! The expected `.stderr` files are rustc's own output on the toolchain CI
//! uses; they are regenerated with `TRYBUILD=overwrite cargo test -p
//! ui-tests` and reviewed. On any other toolchain the cases are skipped
//! (rustc's wording changes between releases), never on this one.

#[rustversion::attr(
    not(stable(1.95)),
    ignore = "the .stderr files are rustc 1.95's output"
)]
#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/fail/*.rs");
    cases.pass("tests/pass/*.rs");
}
