//! Dispatch, as one test binary: typed tools and the registry, the pipeline
//! step by step, how a batch runs, progress from inside a tool, hostile
//! input and a hostile environment, strict lints, concurrency under stress. The tracing
//! span has a binary of its own (`tracing_span.rs`).

mod batch;
mod cancelled;
mod error_source;
pub mod hostile_env;
mod hostile_output;
mod lent_context;
mod output_schema;
mod own_checks;
mod pipeline;
mod progress;
mod robustness;
mod shared_schemas;
mod shown;
mod stress;
pub mod strict_lints;
mod text_arguments;
mod typed_tools;
mod unknown_arguments;
