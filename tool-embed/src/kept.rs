//! The vectors of the texts indexes were built from, kept by the model so
//! that another index of the same tools (a view's, or the registry's once
//! a tool is added) does not embed them again.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::{Mutex, PoisonError};

/// How many texts' vectors are kept at most (about 1.5 KB each with
/// all-MiniLM-L6-v2): past it, the vectors kept are dropped before a call's
/// new ones go in, so that an application whose tools change all the time
/// does not grow without end, and a call's own texts are always kept.
pub(crate) const KEPT: usize = 16_384;

/// Vectors by a hash of their text: a tool's description is written by
/// whoever wrote the tool, a mounted server's included, so its text is not
/// kept, only 8 bytes of it. The hash's keys are drawn for each model, so
/// that no one can write two descriptions that fall on one vector.
#[derive(Default)]
pub(crate) struct Kept {
    hasher: RandomState,
    vectors: Mutex<HashMap<u64, Vec<f32>>>,
}

impl Kept {
    fn key(&self, text: &str) -> u64 {
        self.hasher.hash_one(text)
    }

    /// The vector kept for each of `texts`, if any.
    pub(crate) fn find(&self, texts: &[&str]) -> Vec<Option<Vec<f32>>> {
        let vectors = self.vectors.lock().unwrap_or_else(PoisonError::into_inner);
        texts
            .iter()
            .map(|text| vectors.get(&self.key(text)).cloned())
            .collect()
    }

    /// Keeps the vector of each text of `made`; if that would pass
    /// [`KEPT`], what was kept before is dropped first.
    pub(crate) fn keep(&self, made: &[(&str, &Vec<f32>)]) {
        let mut vectors = self.vectors.lock().unwrap_or_else(PoisonError::into_inner);
        if vectors.len() + made.len() > KEPT {
            vectors.clear();
        }
        for (text, vector) in made.iter().take(KEPT) {
            vectors.insert(self.key(text), (*vector).clone());
        }
    }

    /// How many texts' vectors are kept.
    pub(crate) fn len(&self) -> usize {
        self.vectors
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}
