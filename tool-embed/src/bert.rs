//! The BERT encoder of a sentence-embedding model (all-MiniLM-L6-v2 and
//! its family), its forward pass on candle's CPU tensors: the weights are
//! read by their names in the model's `model.safetensors`, as Hugging
//! Face's `BertModel` saves them.

use candle_core::{D, DType, Module, Result, Tensor};
use candle_nn::{Embedding, LayerNorm, VarBuilder, embedding, layer_norm};
use serde::Deserialize;

/// The fields of a model's `config.json` the encoder needs.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct Config {
    pub(crate) vocab_size: usize,
    pub(crate) hidden_size: usize,
    pub(crate) num_hidden_layers: usize,
    pub(crate) num_attention_heads: usize,
    pub(crate) intermediate_size: usize,
    pub(crate) max_position_embeddings: usize,
    #[serde(default = "type_vocab_size")]
    pub(crate) type_vocab_size: usize,
    #[serde(default = "layer_norm_eps")]
    pub(crate) layer_norm_eps: f64,
    /// Only `gelu` (the exact one, by `erf`) is the family's.
    #[serde(default = "hidden_act")]
    pub(crate) hidden_act: String,
}

fn type_vocab_size() -> usize {
    2
}

fn layer_norm_eps() -> f64 {
    1e-12
}

fn hidden_act() -> String {
    "gelu".to_owned()
}

/// The token, position and segment embeddings, summed and normalized.
struct Embeddings {
    words: Embedding,
    positions: Embedding,
    segments: Embedding,
    norm: LayerNorm,
}

impl Embeddings {
    fn new(config: &Config, vb: VarBuilder<'_>) -> Result<Self> {
        Ok(Self {
            words: embedding(
                config.vocab_size,
                config.hidden_size,
                vb.pp("word_embeddings"),
            )?,
            positions: embedding(
                config.max_position_embeddings,
                config.hidden_size,
                vb.pp("position_embeddings"),
            )?,
            segments: embedding(
                config.type_vocab_size,
                config.hidden_size,
                vb.pp("token_type_embeddings"),
            )?,
            norm: layer_norm(
                config.hidden_size,
                config.layer_norm_eps,
                vb.pp("LayerNorm"),
            )?,
        })
    }

    fn forward(&self, ids: &Tensor, segments: &Tensor) -> Result<Tensor> {
        let length = ids.dim(1)?;
        let positions = Tensor::arange(0u32, length as u32, ids.device())?.unsqueeze(0)?;
        let sum = self
            .words
            .forward(ids)?
            .broadcast_add(&self.positions.forward(&positions)?)?
            .add(&self.segments.forward(segments)?)?;
        self.norm.forward(&sum)
    }
}

/// A dense layer, its weight kept transposed, (inputs, outputs), and
/// contiguous: the matrix product then reads it row by row. Saved as
/// PyTorch keeps it, (outputs, inputs), it would be read across its rows on
/// every product, which for a query's few tokens costs more than the
/// product itself.
struct Dense {
    weight: Tensor,
    bias: Tensor,
}

impl Dense {
    fn new(inputs: usize, outputs: usize, vb: VarBuilder<'_>) -> Result<Self> {
        Self::joined(inputs, outputs, &[vb])
    }

    /// The layers of `parts`, each (outputs, inputs), as one whose outputs
    /// are theirs side by side: one product instead of several.
    fn joined(inputs: usize, outputs: usize, parts: &[VarBuilder<'_>]) -> Result<Self> {
        let weights = parts
            .iter()
            .map(|vb| vb.get((outputs, inputs), "weight"))
            .collect::<Result<Vec<_>>>()?;
        let biases = parts
            .iter()
            .map(|vb| vb.get(outputs, "bias"))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            weight: Tensor::cat(&weights, 0)?.t()?.contiguous()?,
            bias: Tensor::cat(&biases, 0)?,
        })
    }

    /// `x` (batch, length, inputs) to (batch, length, outputs).
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let (batch, length, inputs) = x.dims3()?;
        x.reshape((batch * length, inputs))?
            .matmul(&self.weight)?
            .broadcast_add(&self.bias)?
            .reshape((batch, length, ()))
    }
}

/// One layer: self-attention, then the feed-forward block, each with its
/// residual and normalization after it (BERT's post-norm).
struct Layer {
    /// The query's, key's and value's projections, side by side.
    qkv: Dense,
    attention_out: Dense,
    attention_norm: LayerNorm,
    intermediate: Dense,
    out: Dense,
    out_norm: LayerNorm,
    heads: usize,
}

impl Layer {
    fn new(config: &Config, vb: VarBuilder<'_>) -> Result<Self> {
        let hidden = config.hidden_size;
        let attention = vb.pp("attention");
        let own = attention.pp("self");
        Ok(Self {
            qkv: Dense::joined(
                hidden,
                hidden,
                &[own.pp("query"), own.pp("key"), own.pp("value")],
            )?,
            attention_out: Dense::new(hidden, hidden, attention.pp("output").pp("dense"))?,
            attention_norm: layer_norm(
                hidden,
                config.layer_norm_eps,
                attention.pp("output").pp("LayerNorm"),
            )?,
            intermediate: Dense::new(
                hidden,
                config.intermediate_size,
                vb.pp("intermediate").pp("dense"),
            )?,
            out: Dense::new(
                config.intermediate_size,
                hidden,
                vb.pp("output").pp("dense"),
            )?,
            out_norm: layer_norm(
                hidden,
                config.layer_norm_eps,
                vb.pp("output").pp("LayerNorm"),
            )?,
            heads: config.num_attention_heads,
        })
    }

    /// `hidden` is (batch, length, hidden); `mask` (batch, 1, 1, length)
    /// is added to the attention's scores: 0 for a token, a large
    /// negative for padding.
    fn forward(&self, hidden: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let (batch, length, size) = hidden.dims3()?;
        let head = size / self.heads;
        let qkv = self
            .qkv
            .forward(hidden)?
            .reshape((batch, length, 3, self.heads, head))?;
        let split = |at: usize| -> Result<Tensor> {
            qkv.narrow(2, at, 1)?
                .squeeze(2)?
                .transpose(1, 2)?
                .contiguous()
        };
        let (query, key, value) = (split(0)?, split(1)?, split(2)?);
        let scores = (query.matmul(&key.t()?)? / (head as f64).sqrt())?.broadcast_add(mask)?;
        let weights = candle_nn::ops::softmax_last_dim(&scores)?;
        let context = weights
            .matmul(&value)?
            .transpose(1, 2)?
            .reshape((batch, length, size))?;
        let attended = self
            .attention_norm
            .forward(&(self.attention_out.forward(&context)? + hidden)?)?;
        let inner = self.intermediate.forward(&attended)?.gelu_erf()?;
        self.out_norm
            .forward(&(self.out.forward(&inner)? + attended)?)
    }
}

/// The encoder: token ids in, one vector per token out.
pub(crate) struct Bert {
    embeddings: Embeddings,
    layers: Vec<Layer>,
}

impl Bert {
    pub(crate) fn new(config: &Config, vb: VarBuilder<'_>) -> Result<Self> {
        // A checkpoint saved from `BertForMaskedLM` and the like nests the
        // encoder's weights under `bert.`.
        let vb = if vb.contains_tensor("bert.embeddings.word_embeddings.weight") {
            vb.pp("bert")
        } else {
            vb
        };
        let embeddings = Embeddings::new(config, vb.pp("embeddings"))?;
        let layers = (0..config.num_hidden_layers)
            .map(|at| Layer::new(config, vb.pp("encoder").pp("layer").pp(at)))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self { embeddings, layers })
    }

    /// The last layer's vectors, (batch, length, hidden), for `ids` and
    /// `mask` (batch, length): 1 for a token, 0 for padding.
    pub(crate) fn forward(&self, ids: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let segments = ids.zeros_like()?;
        let mut hidden = self.embeddings.forward(ids, &segments)?;
        // Padding gets a score that its softmax turns into nothing.
        let additive = ((mask.to_dtype(DType::F32)? - 1.0)? * 1e4)?
            .unsqueeze(1)?
            .unsqueeze(1)?;
        for layer in &self.layers {
            hidden = layer.forward(&hidden, &additive)?;
        }
        Ok(hidden)
    }
}

/// The mean of each sentence's token vectors, padding left out, scaled to
/// length 1: sentence-transformers' `Pooling` (mean) then `Normalize`.
pub(crate) fn mean_normalized(hidden: &Tensor, mask: &Tensor) -> Result<Tensor> {
    let mask = mask.to_dtype(DType::F32)?.unsqueeze(D::Minus1)?;
    let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
    let counts = mask.sum(1)?.clamp(1e-9, f64::MAX)?;
    let mean = summed.broadcast_div(&counts)?;
    let norms = mean.sqr()?.sum_keepdim(1)?.sqrt()?.clamp(1e-12, f64::MAX)?;
    mean.broadcast_div(&norms)
}
