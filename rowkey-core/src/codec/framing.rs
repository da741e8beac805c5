//! [`Framing`]: where a variable-length value's bytes end. Data only,
//! below the codecs that write it ([`BytesCodec`](super::BytesCodec)) and
//! the layouts that name it.

pub use super::side::Side;

/// Where a variable-length value's bytes end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Framing {
    /// Escaped and terminated ([`escaped`](super::escaped)): self-delimiting and ordered.
    Escaped,
    /// As is; only for the last field of a key, which ends at the key's end.
    Raw,
    /// Exactly `width` bytes: the value and `fill` bytes on `side`.
    Padded {
        /// Total bytes.
        width: usize,
        /// The fill byte.
        fill: u8,
        /// Where the fill goes.
        side: Side,
    },
    /// As is, up to the struct's separator (or the key's end).
    Delimited,
}
