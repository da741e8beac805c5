//! [`LayoutCodec`]: what the layout's tools do with a field of one codec,
//! implemented once per codec, beside its byte functions and its rules.

use super::dynamic::Value;
use super::{FieldLayout, ValueKind};
use crate::{DecodeError, EncodeError, KeyReader, KeyWriter};
use core::fmt;

/// One codec as a [`Layout`](super::Layout) names it (by its
/// [`FieldCodec`](super::FieldCodec), through
/// `FieldCodec::with_codec`): how the interpreter
/// ([`dynamic`](super::dynamic)) writes, reads and parses a field's
/// [`Value`], and how [`Layout::explain`](super::Layout::explain) says
/// what it stores.
///
/// The codec's format rules are not methods here: derived layouts
/// evaluate them in constants, where a trait method cannot run, so each
/// codec states them in its `const fn rules`, next to this impl.
/// Derived code never comes here: it calls the byte functions directly,
/// and the interpreter calls the same ones with the parameters the layout
/// records, so both write the same bytes.
pub(crate) trait LayoutCodec {
    /// Writes `v`, field `f`'s value (an `Option`'s inner value: its tag
    /// is written already), as derived `encode_into` does.
    fn put_value(
        &self,
        w: &mut KeyWriter<'_>,
        f: &FieldLayout,
        v: &Value,
    ) -> Result<(), EncodeError>;

    /// Reads field `f`'s value (`last`: it ends the key), as derived
    /// `decode` does.
    fn take_value(
        &self,
        r: &mut KeyReader<'_>,
        f: &FieldLayout,
        last: bool,
    ) -> Result<Value, DecodeError>;

    /// The value of `kind` whose stored text is `text`, for a codec that
    /// also takes the text a key holds (`2021-12` for a `%Y-%m` date),
    /// tried when `text` is not how a person writes the kind's values;
    /// `Err` names the stored form for the error. `None`: the kind's form
    /// only.
    fn parse_stored(&self, kind: &ValueKind, text: &str) -> Option<Result<Value, String>> {
        let _ = (kind, text);
        None
    }

    /// Writes what a field of type `ty` (as written) stores, for the
    /// codec column of [`Layout::explain`](super::Layout::explain).
    fn explain(&self, s: &mut String, ty: &str) -> fmt::Result;
}
