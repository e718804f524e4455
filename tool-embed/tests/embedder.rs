//! The vectors this crate makes are sentence-transformers' own: compared,
//! to a tolerance, with those it gave a few sentences with the same model
//! (tests/fixtures/reference.json, made by tests/fixtures/reference.py).

use serde_json::Value;

#[path = "support/model.rs"]
mod support;

/// How far a number of a vector may be from the reference's: the two
/// stacks sum in different orders, in 32 bits (2e-7 apart at most when
/// measured).
const TOLERANCE: f32 = 1e-5;

#[test]
fn vectors_match_sentence_transformers() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/reference.json");
    let reference: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("the fixture")).expect("JSON");
    let sentences = reference["sentences"].as_array().expect("sentences");
    let texts: Vec<&str> = sentences
        .iter()
        .map(|sentence| sentence["text"].as_str().expect("a text"))
        .collect();
    let model = support::model();
    assert_eq!(model.dimensions(), 384);
    // In one batch (padded to the longest) and one by one, the same.
    let batched = model.embed(&texts).expect("embedded");
    for ((sentence, text), vector) in sentences.iter().zip(&texts).zip(&batched) {
        let expected: Vec<f32> = sentence["vector"]
            .as_array()
            .expect("a vector")
            .iter()
            .map(|x| x.as_f64().expect("a number") as f32)
            .collect();
        let alone = model.embed_one(text).expect("embedded");
        for got in [vector, &alone] {
            assert_eq!(got.len(), expected.len());
            let worst = got
                .iter()
                .zip(&expected)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f32::max);
            println!(
                "{:?}: at most {worst:.1e} from sentence-transformers'",
                text.chars().take(40).collect::<String>()
            );
            assert!(
                worst <= TOLERANCE,
                "{text:?}: a number is {worst} from sentence-transformers'"
            );
            let norm: f32 = got.iter().map(|x| x * x).sum::<f32>().sqrt();
            assert!((norm - 1.0).abs() < 1e-5, "{text:?}: length {norm}");
        }
    }
}

#[test]
fn a_missing_model_says_which_file() {
    let error = tool_embed::Embedder::from_dir("/nonexistent/model").expect_err("no model there");
    assert!(
        error.to_string().contains("/nonexistent/model/config.json"),
        "{error}"
    );
}

#[test]
fn an_index_of_a_view_embeds_only_the_texts_the_model_has_not_seen() {
    // A model of its own: the others' tests share theirs.
    let dir =
        std::env::var_os("TOOL_EMBED_MODEL").expect("TOOL_EMBED_MODEL, as scripts/test sets it");
    let model = tool_embed::Embedder::from_dir(dir).expect("the model");
    let texts = ["open an issue", "file a bug", "get the weather"];
    let all = model.embed_kept(&texts).expect("embedded");
    assert_eq!(model.kept(), 3);
    // A view's two texts, and one new: only the new one is embedded.
    let some = model
        .embed_kept(&["get the weather", "convert a currency", "open an issue"])
        .expect("embedded");
    assert_eq!(model.kept(), 4);
    assert_eq!(some[0], all[2]);
    assert_eq!(some[2], all[0]);
    let alone = model.embed_one("convert a currency").expect("embedded");
    let worst = some[1]
        .iter()
        .zip(&alone)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    assert!(worst <= TOLERANCE, "{worst}");
}

#[test]
fn a_query_is_read_to_its_first_40_tokens_whatever_its_length() {
    let model = support::model();
    // A short request: read whole, as any text is.
    let short = "did we get any chargebacks this month?";
    let (query, text) = (
        model.embed_query(short).expect("embedded"),
        model.embed_one(short).expect("embedded"),
    );
    assert!(
        query
            .iter()
            .zip(&text)
            .all(|(a, b)| (a - b).abs() <= TOLERANCE)
    );
    // A pasted log of 50,000 words (and 300 KB): its first 40 tokens, the
    // same vector as a text of those tokens alone. 38 words of one token
    // each, between [CLS] and [SEP].
    let log = "error ".repeat(50_000);
    let first = "error ".repeat(38);
    let (long, cut) = (
        model.embed_query(&log).expect("embedded"),
        model.embed_one(&first).expect("embedded"),
    );
    let worst = long
        .iter()
        .zip(&cut)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    assert!(worst <= TOLERANCE, "{worst}");
    // And not the vector of more of it.
    let more = model.embed_one(&"error ".repeat(200)).expect("embedded");
    assert!(
        long.iter()
            .zip(&more)
            .any(|(a, b)| (a - b).abs() > TOLERANCE)
    );
}

/// A directory of the model's files, written for one test, gone after it.
struct Written(std::path::PathBuf);

impl Written {
    fn new(name: &str, files: &[(&str, &str)]) -> Self {
        let dir = std::env::temp_dir().join(format!("tool-embed-{name}-{}", std::process::id()));
        for (file, text) in files {
            let path = dir.join(file);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
            std::fs::write(path, text).expect("written");
        }
        Self(dir)
    }
}

impl Drop for Written {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_model_this_crate_cannot_run_is_refused_with_why() {
    let config = |hidden: usize, heads: usize| {
        format!(
            r#"{{"vocab_size": 10, "hidden_size": {hidden}, "num_hidden_layers": 1,
                "num_attention_heads": {heads}, "intermediate_size": 4,
                "max_position_embeddings": 8}}"#
        )
    };
    for (name, files, expected) in [
        (
            "heads",
            vec![("config.json", config(384, 0))],
            "unsupported model: a hidden size of 384 over 0 attention heads (each head needs a whole, nonzero share)",
        ),
        (
            "split",
            vec![("config.json", config(384, 5))],
            "unsupported model: a hidden size of 384 over 5 attention heads (each head needs a whole, nonzero share)",
        ),
        (
            "cls",
            vec![
                ("config.json", config(384, 12)),
                (
                    "1_Pooling/config.json",
                    r#"{"pooling_mode_cls_token": true, "pooling_mode_mean_tokens": false}"#
                        .to_owned(),
                ),
            ],
            "unsupported model: a pooling other than the mean of the tokens' vectors (1_Pooling/config.json)",
        ),
        (
            "short",
            vec![
                ("config.json", config(384, 12)),
                (
                    "sentence_bert_config.json",
                    r#"{"max_seq_length": 1}"#.to_owned(),
                ),
            ],
            "unsupported model: a length of 1 tokens (a text needs [CLS] and [SEP] at least)",
        ),
    ] {
        let files: Vec<(&str, &str)> = files.iter().map(|(f, t)| (*f, t.as_str())).collect();
        let dir = Written::new(name, &files);
        let error = tool_embed::Embedder::from_dir(&dir.0).expect_err(name);
        assert_eq!(error.to_string(), expected);
    }
}

#[test]
fn queries_embedded_at_once_on_several_threads_get_their_own_vectors() {
    let model = support::model();
    let queries = [
        "open an issue",
        "get the weather",
        "refund a payment",
        "list the pods",
    ];
    let alone: Vec<Vec<f32>> = queries
        .iter()
        .map(|query| model.embed_query(query).expect("embedded"))
        .collect();
    std::thread::scope(|scope| {
        let running: Vec<_> = (0..4)
            .map(|round| {
                let model = &model;
                scope.spawn(move || {
                    (0..8)
                        .map(|turn| {
                            let at = (round + turn) % queries.len();
                            (at, model.embed_query(queries[at]).expect("embedded"))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for thread in running {
            for (at, vector) in thread.join().expect("no panic") {
                let worst = vector
                    .iter()
                    .zip(&alone[at])
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f32::max);
                assert!(worst <= TOLERANCE, "{}: {worst}", queries[at]);
            }
        }
    });
}
