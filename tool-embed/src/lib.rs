//! Tool search by meaning for tool-core: a sentence-embedding model
//! (all-MiniLM-L6-v2 or another mean-pooled one of the BERT family) run on
//! the CPU in pure Rust, and rankers behind tool-core's
//! [`Ranker`](tool_core::search::Ranker):
//!
//! - [`Hybrid`], the one to use: BM25's words and the model's meaning
//!   fused, so that a query finds the tools it names and those it only
//!   describes ("chargebacks" for a tool about disputes);
//! - [`EmbeddingRanker`], the model's meaning alone;
//! - [`Embedder`], the model: read from a directory the application gives
//!   ([`Embedder::from_dir`]) or, with the feature `hub`, fetched from the
//!   Hugging Face hub (`Embedder::from_hub`).
//!
//! A crate of its own so that an application without it builds none of
//! the model's stack.
//!
//! ```no_run
//! use std::sync::Arc;
//!
//! use tool_core::search::SearchTool;
//! use tool_core::ToolRegistry;
//! use tool_embed::{Embedder, Hybrid};
//!
//! # fn main() -> Result<(), tool_embed::Error> {
//! let model = Arc::new(Embedder::from_dir("models/all-MiniLM-L6-v2")?);
//! let tools: ToolRegistry = ToolRegistry::new();
//! let search = SearchTool::with_ranker(Hybrid::new(model, tools.tools())?, tools.tools());
//! # Ok(())
//! # }
//! ```

mod bert;
mod embedder;
mod hybrid;
mod kept;
mod lanes;
mod load;
mod vectors;

use std::path::PathBuf;

pub use embedder::Embedder;
pub use hybrid::{Hybrid, WORDS};
pub use vectors::EmbeddingRanker;

/// Why a model could not be loaded or could not embed a text.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file of the model could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A JSON file of the model is not what the model's family writes.
    #[error("cannot parse {}: {source}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Why.
        source: serde_json::Error,
    },
    /// The tokenizer could not be read or could not split a text.
    #[error("tokenizer {}: {message}", path.display())]
    Tokenizer {
        /// Its file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// The weights do not fit the model's configuration, or the encoder
    /// failed.
    #[error("model: {0}")]
    Model(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The tokenizer could not split a text into tokens.
    #[error("cannot split a text into tokens: {0}")]
    Encode(String),
    /// The model is not of the BERT family this crate runs.
    #[error("unsupported model: {0}")]
    Unsupported(String),
    /// The threads queries are embedded on could not be started.
    #[error("cannot start the threads queries are embedded on: {0}")]
    Thread(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The model could not be fetched from the Hugging Face hub.
    #[error("hub: {0}")]
    Hub(String),
}

impl Error {
    /// The encoder's error, kept as a source without naming candle's type
    /// in this crate's API.
    pub(crate) fn model(error: candle_core::Error) -> Self {
        Self::Model(Box::new(error))
    }
}
