//! A sentence-embedding model: its tokenizer and encoder, read from a
//! directory as the model's package ships it, and sentences turned into
//! unit vectors as sentence-transformers does.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use serde::Deserialize;
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

use crate::Error;
use crate::bert::{Bert, Config, mean_normalized};

/// How many sentences go through the encoder at once when many are
/// embedded: enough to keep the matrix products wide, few enough that a
/// batch's padding stays short once sentences are sorted by length.
const BATCH: usize = 32;

/// How many texts' vectors [`Embedder::embed_kept`] keeps at most (about
/// 1.5 KB each with all-MiniLM-L6-v2, beside its text): past it, it starts
/// over, so that an application whose tools change all the time does not
/// grow without end.
const KEPT: usize = 16_384;

/// How many tokens of a query [`Embedder::embed_query`] reads, [CLS] and
/// [SEP] among them: a request's meaning is in its first words (the
/// English requests of the benchmark are 38 tokens at most), and a pasted
/// log of thousands of words then costs what a 40-token request does. 40
/// also keeps a query's element-wise products under the size (65,536
/// numbers; 40 tokens × 1,536 in the feed-forward layer) past which candle
/// spreads them over threads that spin while they wait: a query stays on
/// one core.
const QUERY_TOKENS: usize = 40;

/// How many bytes of a query are cut into tokens at most: more than 40
/// tokens of any text but a pathological one, so that a query of a
/// megabyte is not split whole to keep its first 40 tokens.
const QUERY_BYTES: usize = 4_096;

/// The length in tokens past which a sentence is cut when the model does
/// not say (sentence-transformers' default for the family).
const MAX_TOKENS: usize = 256;

/// The part of `sentence_bert_config.json` read: how many tokens the model
/// was trained to read.
#[derive(Deserialize)]
struct SentenceConfig {
    max_seq_length: usize,
}

/// A sentence-embedding model of the BERT family (all-MiniLM-L6-v2, say),
/// on the CPU: text in, a unit vector out, so that the dot product of two
/// is their cosine similarity.
///
/// ```no_run
/// use tool_embed::Embedder;
///
/// # fn main() -> Result<(), tool_embed::Error> {
/// let model = Embedder::from_dir("models/all-MiniLM-L6-v2")?;
/// let vectors = model.embed(&["open an issue", "file a bug"])?;
/// let similarity: f32 = vectors[0].iter().zip(&vectors[1]).map(|(a, b)| a * b).sum();
/// assert!(similarity > 0.5);
/// # Ok(())
/// # }
/// ```
pub struct Embedder {
    bert: Bert,
    tokenizer: Tokenizer,
    /// The same, cutting a text at [`QUERY_TOKENS`].
    query_tokenizer: Tokenizer,
    dimensions: usize,
    /// One thread of its own, which a single text's matrix products run
    /// on: for a query's few tokens, spreading each product over the
    /// cores costs more in waking threads than it saves (BENCHMARKS.md,
    /// "Tool search by meaning"). Many texts at once use every core.
    single: rayon::ThreadPool,
    /// The vectors of the texts indexes were built from, by text.
    kept: Mutex<HashMap<String, Vec<f32>>>,
}

impl std::fmt::Debug for Embedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedder")
            .field("dimensions", &self.dimensions)
            .finish_non_exhaustive()
    }
}

fn read(path: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|source| Error::Read {
        path: path.to_owned(),
        source,
    })
}

fn json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, Error> {
    serde_json::from_slice(&read(path)?).map_err(|source| Error::Parse {
        path: path.to_owned(),
        source,
    })
}

impl Embedder {
    /// The model in `dir`, as Hugging Face and sentence-transformers lay it
    /// out: `config.json`, `tokenizer.json`, `model.safetensors` and, if
    /// there, `sentence_bert_config.json` (how many tokens a sentence is
    /// cut to; 256 without it).
    pub fn from_dir(dir: impl AsRef<Path>) -> Result<Self, Error> {
        let dir = dir.as_ref();
        let sentence = dir.join("sentence_bert_config.json");
        let max_tokens = match sentence.exists() {
            true => json::<SentenceConfig>(&sentence)?.max_seq_length,
            false => MAX_TOKENS,
        };
        Self::from_files(
            &dir.join("config.json"),
            &dir.join("tokenizer.json"),
            &dir.join("model.safetensors"),
            max_tokens,
        )
    }

    /// The model `repo` of the Hugging Face hub (`sentence-transformers/all-MiniLM-L6-v2`,
    /// say), its files downloaded once into the hub's cache
    /// (`~/.cache/huggingface/hub`, or `HF_HOME`) and read from there
    /// after.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), tool_embed::Error> {
    /// let model = tool_embed::Embedder::from_hub("sentence-transformers/all-MiniLM-L6-v2")?;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "hub")]
    pub fn from_hub(repo: &str) -> Result<Self, Error> {
        let api = hf_hub::api::sync::Api::new().map_err(|error| Error::Hub(error.to_string()))?;
        let repo = api.model(repo.to_owned());
        let get = |file: &str| {
            repo.get(file)
                .map_err(|error| Error::Hub(format!("{file}: {error}")))
        };
        let sentence = get("sentence_bert_config.json")
            .ok()
            .map(|path| json::<SentenceConfig>(&path))
            .transpose()?;
        Self::from_files(
            &get("config.json")?,
            &get("tokenizer.json")?,
            &get("model.safetensors")?,
            sentence.map_or(MAX_TOKENS, |config| config.max_seq_length),
        )
    }

    fn from_files(
        config: &Path,
        tokenizer: &Path,
        weights: &Path,
        max_tokens: usize,
    ) -> Result<Self, Error> {
        let config: Config = json(config)?;
        if config.hidden_act != "gelu" {
            return Err(Error::Unsupported(format!(
                "the activation `{}` (only BERT's `gelu` is)",
                config.hidden_act
            )));
        }
        let mut tokenizer = Tokenizer::from_file(tokenizer).map_err(|error| Error::Tokenizer {
            path: tokenizer.to_owned(),
            message: error.to_string(),
        })?;
        // What sentence-transformers does, whatever the file says: cut at
        // the model's length, pad a batch to its longest sentence.
        let max_length = max_tokens.min(config.max_position_embeddings);
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length,
                ..TruncationParams::default()
            }))
            .map_err(|error| Error::Tokenizer {
                path: PathBuf::from("tokenizer.json"),
                message: error.to_string(),
            })?;
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
            .map_err(|error| Error::Tokenizer {
                path: PathBuf::from("tokenizer.json"),
                message: error.to_string(),
            })?;
        // Read into memory rather than mapped: mapping a file is unsafe,
        // as another process may change it under the map.
        let vb = VarBuilder::from_buffered_safetensors(read(weights)?, DType::F32, &Device::Cpu)?;
        let bert = Bert::new(&config, vb)?;
        let single = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .thread_name(|_| "tool-embed".to_owned())
            .build()?;
        Ok(Self {
            bert,
            tokenizer,
            query_tokenizer,
            dimensions: config.hidden_size,
            single,
            kept: Mutex::default(),
        })
    }

    /// How many numbers a vector has (384 for all-MiniLM-L6-v2).
    pub fn dimensions(&self) -> usize {
        self.dimensions
    }

    /// The unit vector of each of `texts`, in their order: the mean of
    /// the model's token vectors, scaled to length 1. A text longer than
    /// the model reads is cut.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, Error> {
        let mut vectors = vec![Vec::new(); texts.len()];
        // Sorted by length, so that a batch pads little.
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&at| (texts[at].len(), at));
        for batch in order.chunks(BATCH) {
            let inputs: Vec<&str> = batch.iter().map(|&at| texts[at]).collect();
            for (at, vector) in batch.iter().zip(self.embed_batch(&self.tokenizer, inputs)?) {
                vectors[*at] = vector;
            }
        }
        Ok(vectors)
    }

    /// The vectors of `texts`, as [`embed`](Self::embed) makes them, but
    /// those of texts it was given before kept and not made again: an
    /// index of a view of a registry, or of the registry again once a tool
    /// is added, embeds only the tools it has not seen. At most 16,384
    /// texts are kept; past that, it starts over.
    pub fn embed_kept(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, Error> {
        let known = |kept: &HashMap<String, Vec<f32>>| -> Vec<Option<Vec<f32>>> {
            texts.iter().map(|text| kept.get(*text).cloned()).collect()
        };
        let found = known(&self.kept.lock().unwrap_or_else(PoisonError::into_inner));
        // Embedded without the lock held: another index may be built meanwhile.
        let new: Vec<&str> = texts
            .iter()
            .zip(&found)
            .filter(|(_, vector)| vector.is_none())
            .map(|(text, _)| *text)
            .collect();
        let mut made = self.embed(&new)?.into_iter();
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let mut vectors = Vec::with_capacity(texts.len());
        for (text, vector) in texts.iter().zip(found) {
            let vector = match vector {
                Some(vector) => vector,
                None => {
                    let vector = made.next().unwrap_or_default();
                    if kept.len() >= KEPT {
                        kept.clear();
                    }
                    kept.insert((*text).to_owned(), vector.clone());
                    vector
                }
            };
            vectors.push(vector);
        }
        Ok(vectors)
    }

    /// How many texts' vectors [`embed_kept`](Self::embed_kept) keeps.
    pub fn kept(&self) -> usize {
        self.kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// The unit vector of one text, cut only at the model's length, made
    /// on one thread (one text's few tokens are done sooner so than spread
    /// over the cores).
    pub fn embed_one(&self, text: &str) -> Result<Vec<f32>, Error> {
        self.embed_alone(&self.tokenizer, text)
    }

    /// The unit vector of a request to search with, of its first 40
    /// tokens, made on one thread: its cost is bounded whatever the
    /// request's length (a pasted log costs what a 40-token request does),
    /// and a request's meaning is in its first words.
    pub fn embed_query(&self, query: &str) -> Result<Vec<f32>, Error> {
        let mut end = query.len().min(QUERY_BYTES);
        while !query.is_char_boundary(end) {
            end -= 1;
        }
        self.embed_alone(&self.query_tokenizer, &query[..end])
    }

    fn embed_alone(&self, tokenizer: &Tokenizer, text: &str) -> Result<Vec<f32>, Error> {
        let vectors = self
            .single
            .install(|| self.embed_batch(tokenizer, vec![text]))?;
        Ok(vectors.into_iter().next().unwrap_or_default())
    }

    fn embed_batch(&self, tokenizer: &Tokenizer, texts: Vec<&str>) -> Result<Vec<Vec<f32>>, Error> {
        let count = texts.len();
        let encodings = tokenizer
            .encode_batch(texts, true)
            .map_err(|error| Error::Tokenizer {
                path: PathBuf::from("tokenizer.json"),
                message: error.to_string(),
            })?;
        let length = encodings.first().map_or(0, |encoding| encoding.len());
        let mut ids = Vec::with_capacity(count * length);
        let mut mask = Vec::with_capacity(count * length);
        for encoding in &encodings {
            ids.extend_from_slice(encoding.get_ids());
            mask.extend_from_slice(encoding.get_attention_mask());
        }
        let ids = Tensor::from_vec(ids, (count, length), &Device::Cpu)?;
        let mask = Tensor::from_vec(mask, (count, length), &Device::Cpu)?;
        let hidden = self.bert.forward(&ids, &mask)?;
        Ok(mean_normalized(&hidden, &mask)?.to_vec2::<f32>()?)
    }
}
