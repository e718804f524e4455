//! A sentence-embedding model: its tokenizer and encoder, read from a
//! directory as the model's package ships it, and sentences turned into
//! unit vectors as sentence-transformers does.

use std::path::Path;

use candle_core::{Device, Tensor};
use tokenizers::Tokenizer;

use crate::Error;
use crate::bert::{Bert, mean_normalized};
use crate::kept::{KEPT, Kept};
use crate::lanes::Lanes;
use crate::load::{Files, Loaded, json_if_there, load};

/// How many sentences go through the encoder at once when many are
/// embedded: enough to keep the matrix products wide, few enough that a
/// batch's padding stays short once sentences are sorted by length.
const BATCH: usize = 32;

/// How many bytes of a text are cut into tokens at most: far more than
/// the 256 tokens the model reads of any text but a pathological one, so
/// that a description or a query of a megabyte is not split whole to keep
/// its first tokens.
const TEXT_BYTES: usize = 8_192;

/// `text` to its first [`TEXT_BYTES`], at a character's boundary.
fn cut(text: &str) -> &str {
    let mut end = text.len().min(TEXT_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// A mean-pooled sentence-embedding model of the BERT family (all-MiniLM-L6-v2, say),
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
    /// The same, cutting a text at 40 tokens.
    query_tokenizer: Tokenizer,
    dimensions: usize,
    /// The threads one text is embedded on (many texts at once use every
    /// core).
    lanes: Lanes,
    /// The vectors of the texts indexes were built from.
    kept: Kept,
}

impl std::fmt::Debug for Embedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedder")
            .field("dimensions", &self.dimensions)
            .finish_non_exhaustive()
    }
}

impl Embedder {
    /// The model in `dir`, as Hugging Face and sentence-transformers lay it
    /// out: `config.json`, `tokenizer.json`, `model.safetensors` and, if
    /// there, `sentence_bert_config.json` (how many tokens a sentence is
    /// cut to; 256 without it) and `1_Pooling/config.json` (a model pooled
    /// otherwise than by the mean of its tokens' vectors is refused: its
    /// vectors would be wrong).
    pub fn from_dir(dir: impl AsRef<Path>) -> Result<Self, Error> {
        let dir = dir.as_ref();
        Self::from_files(Files {
            config: &dir.join("config.json"),
            tokenizer: &dir.join("tokenizer.json"),
            weights: &dir.join("model.safetensors"),
            sentence: json_if_there(&dir.join("sentence_bert_config.json"))?,
            pooling: json_if_there(&dir.join("1_Pooling").join("config.json"))?,
        })
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
        // The optional files: absent from the repository, or not fetched.
        let optional = |file: &str| get(file).ok();
        let sentence = optional("sentence_bert_config.json")
            .map(|path| crate::load::json(&path))
            .transpose()?;
        let pooling = optional("1_Pooling/config.json")
            .map(|path| crate::load::json(&path))
            .transpose()?;
        Self::from_files(Files {
            config: &get("config.json")?,
            tokenizer: &get("tokenizer.json")?,
            weights: &get("model.safetensors")?,
            sentence,
            pooling,
        })
    }

    fn from_files(files: Files<'_>) -> Result<Self, Error> {
        let Loaded {
            bert,
            tokenizer,
            query_tokenizer,
            dimensions,
        } = load(files)?;
        Ok(Self {
            bert,
            tokenizer,
            query_tokenizer,
            dimensions,
            lanes: Lanes::new().map_err(|error| Error::Thread(Box::new(error)))?,
            kept: Kept::default(),
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
        let texts: Vec<&str> = texts.iter().map(|text| cut(text)).collect();
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
    /// texts' vectors are kept, by a hash of the text (not the text); a
    /// call that would pass that drops the others first.
    pub fn embed_kept(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, Error> {
        let texts: Vec<&str> = texts.iter().map(|text| cut(text)).collect();
        let found = self.kept.find(&texts);
        // Embedded without the lock held: another index may be built
        // meanwhile.
        let new: Vec<&str> = texts
            .iter()
            .zip(&found)
            .filter(|(_, vector)| vector.is_none())
            .map(|(text, _)| *text)
            .collect();
        let made = self.embed(&new)?;
        if made.len() != new.len() {
            return Err(Error::Model(
                format!("{} vectors for {} texts", made.len(), new.len()).into(),
            ));
        }
        let pairs: Vec<(&str, &Vec<f32>)> = new.iter().copied().zip(&made).collect();
        self.kept.keep(&pairs);
        let mut made = made.into_iter();
        Ok(found
            .into_iter()
            .map(|vector| vector.or_else(|| made.next()).unwrap_or_default())
            .collect())
    }

    /// How many texts' vectors [`embed_kept`](Self::embed_kept) keeps (at
    /// most 16,384).
    pub fn kept(&self) -> usize {
        debug_assert!(self.kept.len() <= KEPT);
        self.kept.len()
    }

    /// The unit vector of one text, cut only at the model's length, made
    /// on one thread (one text's few tokens are done sooner so than spread
    /// over the cores).
    pub fn embed_one(&self, text: &str) -> Result<Vec<f32>, Error> {
        self.embed_alone(&self.tokenizer, cut(text))
    }

    /// The unit vector of a request to search with, of its first 40
    /// tokens, made on one thread: its cost is bounded whatever the
    /// request's length (a pasted log costs what a 40-token request does),
    /// and a request's meaning is in its first words.
    ///
    /// It blocks the calling thread for the model's forward pass (a few
    /// milliseconds); as many queries run at once as the machine has cores,
    /// the others wait their turn. In async code, call it from a blocking
    /// task (`tokio::task::spawn_blocking`).
    pub fn embed_query(&self, query: &str) -> Result<Vec<f32>, Error> {
        self.embed_alone(&self.query_tokenizer, cut(query))
    }

    fn embed_alone(&self, tokenizer: &Tokenizer, text: &str) -> Result<Vec<f32>, Error> {
        let vectors = self.lanes.run(|| self.embed_batch(tokenizer, vec![text]))?;
        vectors
            .into_iter()
            .next()
            .ok_or_else(|| Error::Model("no vector for the text".into()))
    }

    fn embed_batch(&self, tokenizer: &Tokenizer, texts: Vec<&str>) -> Result<Vec<Vec<f32>>, Error> {
        let count = texts.len();
        let encodings = tokenizer
            .encode_batch(texts, true)
            .map_err(|error| Error::Encode(error.to_string()))?;
        let length = encodings.first().map_or(0, |encoding| encoding.len());
        let mut ids = Vec::with_capacity(count * length);
        let mut mask = Vec::with_capacity(count * length);
        for encoding in &encodings {
            ids.extend_from_slice(encoding.get_ids());
            mask.extend_from_slice(encoding.get_attention_mask());
        }
        let vectors = || -> candle_core::Result<Vec<Vec<f32>>> {
            let ids = Tensor::from_vec(ids, (count, length), &Device::Cpu)?;
            let mask = Tensor::from_vec(mask, (count, length), &Device::Cpu)?;
            let hidden = self.bert.forward(&ids, &mask)?;
            mean_normalized(&hidden, &mask)?.to_vec2::<f32>()
        };
        vectors().map_err(Error::model)
    }
}
