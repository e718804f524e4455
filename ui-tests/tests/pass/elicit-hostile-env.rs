//! `#[derive(Elicit)]` expands cleanly where a user's own `Result`,
//! `Option`, `Some`, `Box`, `Arc` and `core` shadow the standard ones, at
//! module and at function scope, under lints a user may deny in their own
//! code: generated code names everything through tool-core's private module.

#![deny(
    warnings,
    missing_copy_implementations,
    missing_debug_implementations,
    missing_docs,
    non_upper_case_globals,
    rust_2018_idioms,
    single_use_lifetimes,
    trivial_casts,
    unnameable_types,
    unreachable_pub,
    unsafe_code,
    unused_attributes,
    unused_qualifications,
    unused_results
)]

#[allow(dead_code)]
struct Result;
#[allow(dead_code)]
struct Option;
#[allow(dead_code)]
struct Some;
#[allow(dead_code)]
struct Box;
#[allow(dead_code)]
struct Arc;
#[allow(dead_code)]
struct Value;
#[allow(dead_code)]
mod core {}

use tool_core::elicit::Elicit;

/// A room.
#[derive(Debug, Clone, Copy, serde::Deserialize, schemars::JsonSchema, Elicit)]
pub enum Room {
    /// One bed.
    Single,
    /// Two beds.
    Double,
}

/// An address.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
pub struct Email(String);

/// What the guest chooses.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
pub struct Booking {
    /// The room.
    pub room: Room,
    /// Where to write.
    pub email: ::std::option::Option<Email>,
}

/// Renamed: the derive reaches tool-core by the path it is given.
mod renamed {
    pub(crate) use tool_core as my_core;
}

/// A question, at function scope, through a renamed crate.
fn at_function_scope() -> bool {
    /// Go ahead?
    #[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
    #[elicit(crate = crate::renamed::my_core)]
    struct Confirm {
        /// Yes or no.
        go: bool,
    }
    Confirm::requested_schema().is_ok()
}

fn main() {
    assert!(Booking::requested_schema().is_ok());
    assert!(at_function_scope());
}
