//! The provider side, as one test binary: definitions against the
//! providers' own payloads, each dialect's rules and the providers' own SDK
//! models, calls parsed and results formatted, strict mode's `null`s, the
//! servers of the OpenAI Chat family, and whole agent loops.

mod agent_loop;
mod argument_text;
mod choice;
mod client_tools;
mod compat;
mod corpus;
mod enum_errors;
mod extras;
mod fixtures;
mod gemini_names;
mod listing;
mod mcp_header;
mod mcp_optional;
mod media;
mod payloads;
mod recorded_streams;
mod registry;
mod schema_checker;
mod schemas;
mod sdk;
mod search_loop;
mod stream_edges;
mod stream_loop;
mod streams;
mod strict_nulls;
mod strict_witness;
