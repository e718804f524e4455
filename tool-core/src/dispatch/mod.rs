//! Dispatch: the registry, and the pipeline every call goes through (raw
//! arguments, validation, the one deserializer, policy, timeouts, panics,
//! pending calls, events). Knows the vocabulary and the schema checks, no
//! provider.

pub(crate) mod access;
pub(crate) mod adapter;
pub(crate) mod background;
pub(crate) mod begin;
pub(crate) mod bound;
pub(crate) mod call_data;
pub(crate) mod entry;
pub(crate) mod execute;
pub(crate) mod one_at_a_time;
pub(crate) mod output;
pub(crate) mod pending;
pub(crate) mod pipeline;
pub(crate) mod read;
pub(crate) mod runner;
pub(crate) mod schemas;
pub(crate) mod settings;
pub(crate) mod watch;
