//! Collects every error of one derive so all of them are reported at once
//! (serde_derive's `Ctxt` pattern), with serde's guard: a `Ctxt` dropped
//! without [`Ctxt::check`] panics, so no path can lose its errors.

use proc_macro2::TokenStream;
use quote::ToTokens;
use std::cell::RefCell;
use std::fmt::Display;

/// The error sink of one expansion.
pub struct Ctxt {
    /// `None` once checked.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Default for Ctxt {
    fn default() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }
}

impl Ctxt {
    fn push(&self, error: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check")
            .push(error);
    }

    /// An error spanned at `tokens`.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// An error at `span`.
    pub fn error_at<M: Display>(&self, span: proc_macro2::Span, message: M) {
        self.push(syn::Error::new(span, message));
    }

    /// An error syn produced while parsing.
    pub fn syn_error(&self, err: syn::Error) {
        self.push(err);
    }

    /// Whether anything was reported.
    pub fn has_errors(&self) -> bool {
        self.errors.borrow().as_ref().is_some_and(|e| !e.is_empty())
    }

    /// All errors as `compile_error!` invocations, or `Ok` when none.
    pub fn check(self) -> Result<(), TokenStream> {
        let errors = self.errors.borrow_mut().take().unwrap_or_default();
        if errors.is_empty() {
            return Ok(());
        }
        Err(errors.into_iter().map(|e| e.to_compile_error()).collect())
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors");
        }
    }
}
