//! Collects every error of one expansion, so the user sees them all at once.

use std::fmt::Display;

use quote::ToTokens;

#[derive(Default)]
pub(crate) struct Errors(Vec<syn::Error>);

impl Errors {
    /// An error on the given tokens.
    pub(crate) fn spanned(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.0.push(syn::Error::new_spanned(tokens, message));
    }

    /// An error already built (a parse error, say).
    pub(crate) fn push(&mut self, error: syn::Error) {
        self.0.push(error);
    }

    /// All errors folded into one, if there were any.
    pub(crate) fn finish(self) -> Result<(), syn::Error> {
        let mut errors = self.0.into_iter();
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
