//! The provider side, as one test binary: definitions against the
//! providers' own payloads and each dialect's rules, calls parsed and
//! results formatted, strict mode's `null`s, and whole agent loops.

mod agent_loop;
mod corpus;
mod fixtures;
mod registry;
mod schemas;
mod strict_nulls;
