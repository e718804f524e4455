//! Dispatch, as one test binary: typed tools and the registry, the pipeline
//! step by step, hostile input and a hostile environment, concurrency under
//! stress. The tracing span has a binary of its own (`tracing_span.rs`).

pub mod hostile_env;
mod hostile_output;
mod own_checks;
mod pipeline;
mod robustness;
mod stress;
mod typed_tools;
