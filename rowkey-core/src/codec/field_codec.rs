//! [`FieldCodec`]: which codec writes a field, as a layout names it. Data
//! only, below the codecs themselves (which read layouts) and the layouts
//! (which hold it); `codec/mod.rs` turns a variant into its codec.

use super::date_format::DateFormat;
use super::framing::Framing;
use super::reverse::Reverse;

/// How a field's value becomes bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FieldCodec {
    /// The type's own [`KeyPart`](crate::KeyPart) encoding (integers
    /// big-endian with the sign bit flipped, bool, char, arrays, enums,
    /// user types).
    Binary,
    /// Zero-padded decimal digits.
    Text {
        /// Digits written.
        width: usize,
        /// Digits stored back to front.
        reverse: bool,
    },
    /// Text or bytes.
    Bytes {
        /// How the value is delimited.
        framing: Framing,
        /// The longest value accepted.
        max_len: usize,
        /// Reversal applied.
        reverse: Reverse,
    },
    /// `i64::MAX - ts`.
    DescTimestamp {
        /// 19 digits instead of 8 bytes.
        text: bool,
    },
    /// A date or time as fixed-width text (`#[text(format = "..")]`).
    DateText {
        /// The format (serialised as its string).
        format: DateFormat,
    },
    /// A UUID's 36-character lowercase hyphenated form (`#[text]`).
    UuidText,
    /// An Apache Phoenix key column (`#[rowkey(phoenix)]`): its type's
    /// bytes, inverted for `DESC`, with Phoenix's separator after a
    /// variable-length one ([`phoenix`](super::phoenix)).
    Phoenix {
        /// The column's type.
        ty: super::phoenix::PhoenixType,
        /// It ends the key.
        last: bool,
        /// The most bytes a value takes (its separator not counted).
        max_len: usize,
    },
    /// A non-negative decimal as zero-padded digits with a fixed number of
    /// decimals (`#[text(width, scale)]`).
    DecimalText {
        /// Characters, the `.` included.
        width: usize,
        /// Digits after the `.`.
        scale: u32,
    },
}
