//! A model's files read and checked: its configuration, the pooling its
//! sentence-transformers configuration names, its tokenizers and weights.

use std::path::Path;

use candle_core::{DType, Device};
use candle_nn::VarBuilder;
use serde::Deserialize;
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

use crate::Error;
use crate::bert::{Bert, Config};

/// How many tokens of a query [`Embedder::embed_query`] reads, [CLS] and
/// [SEP] among them: a request's meaning is in its first words (the
/// English requests of the benchmark are 38 tokens at most), and a pasted
/// log of thousands of words then costs what a 40-token request does. 40
/// also keeps a query's element-wise products under the size past which
/// candle spreads them over threads that spin while they wait (65,536
/// numbers: 43 tokens × 1,536 in the feed-forward layer; 40 × 1,536 is
/// 61,440), so a query stays on one core.
///
/// [`Embedder::embed_query`]: crate::Embedder::embed_query
pub(crate) const QUERY_TOKENS: usize = 40;

/// The length in tokens past which a sentence is cut when the model does
/// not say (sentence-transformers' default for the family).
const MAX_TOKENS: usize = 256;

/// The part of `sentence_bert_config.json` read: how many tokens the model
/// was trained to read.
#[derive(Deserialize)]
pub(crate) struct SentenceConfig {
    max_seq_length: usize,
}

/// The part of `1_Pooling/config.json` read: how token vectors become a
/// sentence's. Only the mean is this crate's.
#[derive(Deserialize)]
pub(crate) struct Pooling {
    #[serde(default)]
    pooling_mode_mean_tokens: bool,
    #[serde(default)]
    pooling_mode_cls_token: bool,
    #[serde(default)]
    pooling_mode_max_tokens: bool,
}

/// What a model's files give: its encoder, its tokenizer for texts and
/// the same cutting a query shorter, and its vectors' size.
pub(crate) struct Loaded {
    pub(crate) bert: Bert,
    pub(crate) tokenizer: Tokenizer,
    pub(crate) query_tokenizer: Tokenizer,
    pub(crate) dimensions: usize,
}

/// The model's files, as [`crate::Embedder::from_dir`] and
/// `from_hub` find them.
pub(crate) struct Files<'a> {
    pub(crate) config: &'a Path,
    pub(crate) tokenizer: &'a Path,
    pub(crate) weights: &'a Path,
    pub(crate) sentence: Option<SentenceConfig>,
    pub(crate) pooling: Option<Pooling>,
}

pub(crate) fn read(path: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|source| Error::Read {
        path: path.to_owned(),
        source,
    })
}

pub(crate) fn json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, Error> {
    serde_json::from_slice(&read(path)?).map_err(|source| Error::Parse {
        path: path.to_owned(),
        source,
    })
}

/// `path` read as JSON if it is there.
pub(crate) fn json_if_there<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Option<T>, Error> {
    match path.exists() {
        true => json(path).map(Some),
        false => Ok(None),
    }
}

/// The configuration's sizes, checked: a size of 0, or heads that do not
/// divide the hidden size, would divide by zero or mis-shape a tensor at
/// the first text.
fn check(config: &Config, max_length: usize) -> Result<(), Error> {
    if config.hidden_act != "gelu" {
        return Err(Error::Unsupported(format!(
            "the activation `{}` (only BERT's `gelu` is)",
            config.hidden_act
        )));
    }
    let heads = config.num_attention_heads;
    if config.hidden_size == 0 || heads == 0 || !config.hidden_size.is_multiple_of(heads) {
        return Err(Error::Unsupported(format!(
            "a hidden size of {} over {heads} attention heads (each head needs a whole, nonzero share)",
            config.hidden_size
        )));
    }
    if max_length < 2 {
        return Err(Error::Unsupported(format!(
            "a length of {max_length} tokens (a text needs [CLS] and [SEP] at least)"
        )));
    }
    Ok(())
}

fn tokenizer_error(path: &Path) -> impl Fn(tokenizers::Error) -> Error + '_ {
    move |error| Error::Tokenizer {
        path: path.to_owned(),
        message: error.to_string(),
    }
}

/// The model of `files`, checked.
pub(crate) fn load(files: Files<'_>) -> Result<Loaded, Error> {
    if let Some(pooling) = &files.pooling
        && (!pooling.pooling_mode_mean_tokens
            || pooling.pooling_mode_cls_token
            || pooling.pooling_mode_max_tokens)
    {
        return Err(Error::Unsupported(
            "a pooling other than the mean of the tokens' vectors (1_Pooling/config.json)"
                .to_owned(),
        ));
    }
    let config: Config = json(files.config)?;
    let max_tokens = files
        .sentence
        .map_or(MAX_TOKENS, |sentence| sentence.max_seq_length);
    // What sentence-transformers does, whatever the tokenizer's file says:
    // cut at the model's length, pad a batch to its longest sentence.
    let max_length = max_tokens.min(config.max_position_embeddings);
    check(&config, max_length)?;
    let mut tokenizer =
        Tokenizer::from_file(files.tokenizer).map_err(tokenizer_error(files.tokenizer))?;
    tokenizer
        .with_truncation(Some(TruncationParams {
            max_length,
            ..TruncationParams::default()
        }))
        .map_err(tokenizer_error(files.tokenizer))?;
    tokenizer.with_padding(Some(PaddingParams {
        strategy: PaddingStrategy::BatchLongest,
        ..PaddingParams::default()
    }));
    let mut query_tokenizer = tokenizer.clone();
    query_tokenizer
        .with_truncation(Some(TruncationParams {
            max_length: QUERY_TOKENS.min(max_length),
            ..TruncationParams::default()
        }))
        .map_err(tokenizer_error(files.tokenizer))?;
    // Read into memory rather than mapped: mapping a file is unsafe, as
    // another process may change it under the map.
    let vb = VarBuilder::from_buffered_safetensors(read(files.weights)?, DType::F32, &Device::Cpu)
        .map_err(Error::model)?;
    let bert = Bert::new(&config, vb).map_err(Error::model)?;
    Ok(Loaded {
        bert,
        tokenizer,
        query_tokenizer,
        dimensions: config.hidden_size,
    })
}
