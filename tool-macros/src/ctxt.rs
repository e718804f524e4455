//! Collects every error of one expansion, so the user sees them all at once.

use std::fmt::Display;
use std::thread;

use quote::ToTokens;

/// The errors found so far in one expansion.
///
/// Every path through the expansion must hand them to [`Errors::finish`]:
/// like serde_derive's `Ctxt`, dropping the collector unfinished panics, so
/// an early return cannot lose an error silently.
#[derive(Default)]
#[must_use = "the errors are reported only through `finish`"]
pub(crate) struct Errors {
    errors: Vec<syn::Error>,
    finished: bool,
}

impl Errors {
    /// An error on the given tokens.
    pub(crate) fn spanned(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.errors.push(syn::Error::new_spanned(tokens, message));
    }

    /// An error already built (a parse error, say).
    pub(crate) fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// All errors folded into one, in the order they were found, if there
    /// were any.
    pub(crate) fn finish(mut self) -> Result<(), syn::Error> {
        self.finished = true;
        let mut errors = std::mem::take(&mut self.errors).into_iter();
        match errors.next() {
            None => Ok(()),
            Some(mut first) => {
                for error in errors {
                    first.combine(error);
                }
                Err(first)
            }
        }
    }
}

impl Drop for Errors {
    fn drop(&mut self) {
        // A second panic while unwinding would abort and hide the first.
        if !self.finished && !thread::panicking() {
            panic!("`Errors` dropped without `finish`: its errors would be lost");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finish_folds_the_errors_in_order() {
        let mut errors = Errors::default();
        errors.push(syn::Error::new(proc_macro2::Span::call_site(), "first"));
        errors.spanned(quote::quote!(x), "second");
        let messages: Vec<String> = match errors.finish() {
            Ok(()) => panic!("expected errors"),
            Err(error) => error.into_iter().map(|e| e.to_string()).collect(),
        };
        assert_eq!(messages, ["first", "second"]);
    }

    #[test]
    #[should_panic(expected = "dropped without `finish`")]
    fn dropping_it_unfinished_panics() {
        let _errors = Errors::default();
    }
}
