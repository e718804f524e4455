//! Examples and integration tests of tool-core and tool-macros; nothing to
//! use from here. The README's examples compile and run as this crate's doc
//! tests.

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
