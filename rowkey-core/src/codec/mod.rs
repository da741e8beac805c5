//! Field codecs: one module per way of writing a value, and
//! [`FieldCodec`], the name a layout gives one with its parameters.
//!
//! A codec's module holds its byte functions (what derived code calls),
//! its format rules (a `const fn rules`, read by
//! [`layout::rules`](crate::layout::rules)), its impl of `LayoutCodec`
//! (what the layout's interpreter and `explain` do with a field of it)
//! and, for a codec of one value type, its impl of `ScanCodec` (what a
//! scan step writes). A new codec is that module, its lines here and its
//! [`FieldCodec`] variant with its arm in `with_codec!` below; in
//! `rowkey-derive`, the check that picks it (`check/`) and its emission
//! (`expand/codec.rs`): 4 files in 2 crates, and a fifth, the attribute
//! parser (`attr/mod.rs`), when it is spelled with a new word. (Measured
//! with a toy `#[text(hex)]` on `u32`/`u64`: 5 files after the codecs
//! stated their own rules, 13 before.)
//!
//! | module | writes | order |
//! | --- | --- | --- |
//! | [`int`] | integers big-endian, sign bit flipped for signed types | kept |
//! | [`float`] | `f32`/`f64` bits in total order; `-0.0` stored as `0.0`, NaN refused | kept |
//! | [`binary`] | any type by its own `KeyPart` (the modules above and the date, decimal and UUID ones): what a layout knows of it | the type's |
//! | [`bits`] | `#[derive(KeyPart)]` structs of `#[bits(n)]` fields as one big-endian word, first field highest | kept (the fields in declared order) |
//! | [`decimal`] | integers as zero-padded digits (`#[text]`) | kept |
//! | [`escaped`] | variable bytes, `00`→`00 FF`, terminator `00 01` | kept |
//! | [`framing`] | text/bytes escaped, raw, padded or delimited | kept, but left padding sorts by length first |
//! | [`reverse`] | characters, digits or segments back to front | none |
//! | [`desc`] | `i64::MAX - ts`, inverted parts | reversed |
//! | `chrono` (feature `chrono`) | `NaiveDate` as epoch days, `NaiveDateTime` and `DateTime<Utc>` as epoch nanoseconds, sign bit flipped | kept |
//! | `time` (feature `time`), `jiff` (feature `jiff`) | dates as epoch days, datetimes and instants as epoch nanoseconds, as chrono's | kept |
//! | `rust_decimal` (feature `rust_decimal`) | `Decimal` as a sign and exponent byte, then base-100 digits; normalised | kept |
//! | `uuid` (feature `uuid`) | `uuid::Uuid` as its 16 bytes | kept (`Uuid`'s `Ord`) |
//! | [`date_text`] | dates and times as fixed-width text in a [`DateFormat`] (`#[text(format = "..")]`) | kept (of the units written) |
//! | [`uuid_text`] (its bytes: feature `uuid`) | `uuid::Uuid` as 36 lowercase hyphenated characters (`#[text]`) | kept |
//! | [`decimal_text`] (its bytes: feature `rust_decimal`) | `Decimal` as zero-padded digits of a fixed scale (`#[text(width, scale)]`); negatives refused | kept |
//! | `Option<T>` | `None` = `00`, `Some(v)` = `01` + v | kept |

pub mod binary;
pub mod bits;
mod byte_search;
pub mod bytes;
pub mod bytes_codec;
#[cfg(feature = "chrono")]
pub mod chrono;
pub(crate) mod civil;
pub mod date_format;
#[cfg(any(feature = "chrono", feature = "time", feature = "jiff"))]
mod date_impls;
pub mod date_text;
pub mod decimal;
pub mod decimal_text;
pub mod desc;
pub(crate) mod desc_part;
pub(crate) mod epoch;
pub mod escaped;
pub(crate) mod field_codec;
pub mod float;
pub mod framing;
mod framing_take;
pub mod int;
#[cfg(feature = "jiff")]
pub mod jiff;
pub(crate) mod option;
pub mod phoenix;
pub mod reverse;
#[cfg(feature = "rust_decimal")]
pub mod rust_decimal;
pub(crate) mod side;
#[cfg(test)]
mod test_util;
#[cfg(feature = "time")]
pub mod time;
#[cfg(feature = "uuid")]
pub mod uuid;
pub mod uuid_text;

pub use binary::BinaryPart;
pub use bits::{BitField, BitsField};
pub use bytes::{DecodeBytes, DecodeBytesOwned, KeyBytes};
pub use bytes_codec::BytesCodec;
pub use civil::CivilTime;
pub use date_format::{DateFormat, FormatError, FormatItem};
pub use date_text::TextDate;
pub use decimal::{Digits, TextInt};
pub use decimal_text::DecimalText;
pub use desc::{DescTs, Timestamp};
pub use field_codec::FieldCodec;
pub use framing::Framing;
pub use reverse::Reverse;
pub use uuid_text::UuidText;

use crate::layout::rules::CodecRules;
use crate::layout::{FieldLayout, LayoutCodec};

/// The codec a [`FieldCodec`] names, for a field with `#[desc]` =
/// `$desc` in a key whose separator is `$sep`, bound to `$c` while `$body`
/// runs: the one place a variant becomes its codec. A macro rather than a
/// function returning one value: the codecs are different types, and the
/// rules, which derived layouts evaluate in constants, call each codec's
/// `const fn` statically, while the interpreter takes it as a
/// [`LayoutCodec`].
macro_rules! with_codec {
    ($codec:expr, $desc:expr, $sep:expr, |$c:ident| $body:expr) => {{
        let (desc, separator): (bool, Option<u8>) = ($desc, $sep);
        match $codec {
            FieldCodec::Binary => {
                let $c = BinaryPart { desc };
                $body
            }
            FieldCodec::Text { width, reverse } => {
                let $c = Digits {
                    width,
                    reverse,
                    desc,
                };
                $body
            }
            FieldCodec::Bytes {
                framing,
                max_len,
                reverse,
            } => {
                let $c = BytesCodec {
                    framing,
                    max_len,
                    reverse,
                    desc,
                    separator,
                };
                $body
            }
            FieldCodec::DescTimestamp { text } => {
                let $c = DescTs { text };
                $body
            }
            FieldCodec::DateText { format } => {
                let $c = format;
                $body
            }
            FieldCodec::UuidText => {
                let $c = UuidText;
                $body
            }
            FieldCodec::DecimalText { width, scale } => {
                let $c = DecimalText { width, scale };
                $body
            }
            FieldCodec::Phoenix { ty, last, max_len } => {
                let $c = phoenix::PhoenixField {
                    ty,
                    desc,
                    last,
                    max_len,
                };
                $body
            }
        }
    }};
}

impl FieldCodec {
    /// The codec's format rules, for a field with `#[desc]` = `desc`.
    pub(crate) const fn rules(&self, desc: bool) -> CodecRules {
        // The separator is the key's; no rule depends on it.
        with_codec!(*self, desc, None, |c| c.rules())
    }

    /// Runs `f` with the codec, for a field with `#[desc]` = `desc` in a
    /// key whose separator is `separator`.
    pub(crate) fn with_codec<R>(
        &self,
        desc: bool,
        separator: Option<u8>,
        f: impl FnOnce(&dyn LayoutCodec) -> R,
    ) -> R {
        with_codec!(*self, desc, separator, |c| f(&c))
    }
}

impl FieldLayout {
    /// The digits codec of a `#[text]` integer field, as the derive writes
    /// it (`None` for other codecs).
    pub fn digits(&self) -> Option<Digits> {
        match self.codec {
            FieldCodec::Text { width, reverse } => Some(Digits {
                width,
                reverse,
                desc: self.desc,
            }),
            _ => None,
        }
    }

    /// The codec of a text or bytes field in a key whose separator is
    /// `separator` (`None` for other codecs).
    pub fn bytes_codec(&self, separator: Option<u8>) -> Option<BytesCodec> {
        match self.codec {
            FieldCodec::Bytes {
                framing,
                max_len,
                reverse,
            } => Some(BytesCodec {
                framing,
                max_len,
                reverse,
                desc: self.desc,
                separator,
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::framing::Side;
    use crate::layout::{Order, ValueKind};

    fn field(codec: FieldCodec, desc: bool) -> FieldLayout {
        FieldLayout {
            name: "f",
            rust_type: "T",
            value: ValueKind::Opaque,
            codec,
            offset: None,
            max_len: 8,
            fixed_len: None,
            order: Order::Ascending,
            optional: false,
            desc,
        }
    }

    #[test]
    fn a_field_gives_the_codec_its_bytes_are_written_with() {
        let text = field(
            FieldCodec::Text {
                width: 6,
                reverse: true,
            },
            true,
        );
        let digits = Digits {
            width: 6,
            reverse: true,
            desc: true,
        };
        assert_eq!(text.digits(), Some(digits));
        assert_eq!(text.bytes_codec(Some(b'_')), None);

        let padded = Framing::Padded {
            width: 8,
            fill: 0x01,
            side: Side::Left,
        };
        let bytes = field(
            FieldCodec::Bytes {
                framing: padded,
                max_len: 8,
                reverse: Reverse::Chars,
            },
            false,
        );
        let codec = BytesCodec {
            framing: padded,
            max_len: 8,
            reverse: Reverse::Chars,
            desc: false,
            separator: Some(b'_'),
        };
        assert_eq!(bytes.bytes_codec(Some(b'_')), Some(codec));
        assert_eq!(bytes.digits(), None);
        assert_eq!(field(FieldCodec::Binary, false).digits(), None);
    }
}
