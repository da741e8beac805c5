//! The format rules of one field, by its [`FieldCodec`]: the bytes it
//! takes, how they sort, which scans they answer, whether a decoded value
//! can borrow them and which bytes the codec can write.
//!
//! These are the one source of each rule. `rowkey-derive` evaluates them
//! while it expands a key (it depends on this crate) and bakes the answers
//! into the generated constants; the layout, the interpreter
//! ([`dynamic`](super::dynamic)) and tools read them here.

use super::{FieldCodec, FieldLayout, Order, ValueKind};
use crate::codec::desc::DESC_TS_DIGITS;
use crate::codec::{Framing, Reverse};
use crate::KeyPart;

/// Characters of a UUID's hyphenated text (`#[text]` on a `Uuid`).
pub const UUID_TEXT_WIDTH: usize = 36;
/// Bytes of a binary `#[desc_ts]` (`i64::MAX - ts`, big-endian).
pub const DESC_TS_BYTES: usize = 8;
/// The most digits `#[text]` writes: those of `u128::MAX`.
pub const MAX_TEXT_DIGITS: usize = 39;
/// The most decimals a `#[text(width, scale)]` decimal holds (a
/// `rust_decimal::Decimal`'s).
pub const MAX_DECIMAL_SCALE: u32 = 28;
/// The most digits, integer and decimal, a `#[text(width, scale)]` decimal
/// holds (`u128` carries them).
pub const MAX_DECIMAL_DIGITS: usize = 38;
/// The most variants a `#[derive(KeyPart)]` enum has: it is stored as one
/// byte, its position.
pub const MAX_ENUM_VARIANTS: usize = 256;

/// Decimal digits of the largest value of an integer of `bytes` bytes (the
/// default width of its `#[text]`): `u8` 3, `i64` 19, `u64` 20.
pub const fn int_digits(bytes: usize, signed: bool) -> usize {
    match (bytes, signed) {
        (1, _) => 3,
        (2, _) => 5,
        (4, _) => 10,
        (8, false) => 20,
        (8, true) => 19,
        _ => MAX_TEXT_DIGITS,
    }
}

/// Whether `#[text(width, scale)]` makes a decimal codec: at most 28
/// decimals, at least one digit before the point, at most 38 digits.
pub const fn decimal_text_is_valid(width: usize, scale: u32) -> bool {
    let point = (scale > 0) as usize;
    scale <= MAX_DECIMAL_SCALE
        && width > scale as usize + point
        && width - point <= MAX_DECIMAL_DIGITS
}

/// What a type's own [`KeyPart`] says of its bytes: the facts the binary
/// codec ([`FieldCodec::Binary`]) takes from the type, not the attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PartFacts {
    /// [`KeyPart::MAX_LEN`].
    pub max_len: usize,
    /// [`KeyPart::FIXED_LEN`].
    pub fixed_len: Option<usize>,
    /// [`KeyPart::ORDERED`].
    pub ordered: bool,
}

impl PartFacts {
    /// For a field whose codec is not the binary one: its codec alone says
    /// how long and how ordered it is.
    pub const NOT_BINARY: PartFacts = PartFacts {
        max_len: 0,
        fixed_len: None,
        ordered: true,
    };

    /// The facts of `T`'s `KeyPart`.
    pub const fn of<T: KeyPart + ?Sized>() -> PartFacts {
        PartFacts {
            max_len: T::MAX_LEN,
            fixed_len: T::FIXED_LEN,
            ordered: T::ORDERED,
        }
    }
}

/// Why a field cannot take a scan step: each names the reason type in
/// `rowkey::scan` that the compile error of such a call shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScanRefusal {
    /// Left padding: fill first, longer values sort first.
    LeftPadded,
    /// Reversed characters, segments or digits.
    Reversed,
    /// Binary bytes are not digits: a range, not a text prefix.
    BinaryHasNoTextPrefix,
    /// Inverted escaped bytes.
    DescendingEscaped,
    /// `i64::MAX - ts` has no prefix meaning.
    ReversedTimestamp,
    /// Separator-joined text sorts by the separator.
    SeparatorJoined,
    /// Right padding with a fill other than `0x00`.
    PaddedWithNonZeroFill,
    /// The field a hash prefix is computed from.
    Hashed,
    /// An `Option` field.
    Optional,
    /// Not one width for every value: cannot be left free.
    VariableWidth,
    /// A date, UUID or decimal text: `eq` or a range of its type.
    TextFormTakesARange,
}

impl ScanRefusal {
    /// The name of the reason type in `rowkey::scan`.
    pub const fn reason_type(self) -> &'static str {
        match self {
            ScanRefusal::LeftPadded => "LeftPaddedFieldsHaveNoPrefixOrRangeOrder",
            ScanRefusal::Reversed => "ReversedFieldsHaveNoPrefixOrRangeOrder",
            ScanRefusal::BinaryHasNoTextPrefix => "BinaryFieldsHaveNoTextPrefix",
            ScanRefusal::DescendingEscaped => "DescendingEscapedFieldsHaveNoPrefix",
            ScanRefusal::ReversedTimestamp => "ReversedTimestampsHaveNoPrefix",
            ScanRefusal::SeparatorJoined => "SeparatorJoinedTextHasNoRangeOrder",
            ScanRefusal::PaddedWithNonZeroFill => "PaddedFieldsWithNonZeroFillHaveNoRangeOrder",
            ScanRefusal::Hashed => "HashedFieldsAreSetExactly",
            ScanRefusal::Optional => "OptionalFieldsAreSetExactly",
            ScanRefusal::VariableWidth => "VariableWidthFieldsCannotBeLeftFree",
            ScanRefusal::TextFormTakesARange => "TextFormsTakeARangeNotAPrefix",
        }
    }
}

/// What a field's text prefix (`_starts_with`) writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PrefixScan {
    /// The leading digits of a `#[text]` integer.
    Digits,
    /// The leading bytes of text or bytes.
    Bytes,
}

/// How a field's range bounds are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RangeScan {
    /// As exact values are, through the field's codec.
    Values,
    /// As a `#[desc_ts]` window.
    Time,
}

/// Fields set exactly whatever their codec: the hashed field of a hash
/// prefix, and `Option`s.
pub const fn set_exactly(optional: bool, hashed: bool) -> Result<(), ScanRefusal> {
    if hashed {
        Err(ScanRefusal::Hashed)
    } else if optional {
        Err(ScanRefusal::Optional)
    } else {
        Ok(())
    }
}

impl FieldCodec {
    /// Bytes every value takes when the codec alone fixes them; `None` for
    /// the binary codec (its type says, [`PartFacts`]) and unpadded text.
    pub const fn width(&self) -> Option<usize> {
        match *self {
            FieldCodec::Binary => None,
            FieldCodec::Text { width, .. } | FieldCodec::DecimalText { width, .. } => Some(width),
            FieldCodec::Bytes {
                framing: Framing::Padded { width, .. },
                ..
            } => Some(width),
            FieldCodec::Bytes { .. } => None,
            FieldCodec::DescTimestamp { text: true } => Some(DESC_TS_DIGITS),
            FieldCodec::DescTimestamp { text: false } => Some(DESC_TS_BYTES),
            FieldCodec::DateText { format } => Some(format.width()),
            FieldCodec::UuidText => Some(UUID_TEXT_WIDTH),
        }
    }

    /// The most bytes a value takes (no `Option` tag); `None` for the
    /// binary codec, whose type says ([`PartFacts`]).
    pub const fn max_len(&self) -> Option<usize> {
        match *self {
            FieldCodec::Bytes {
                framing, max_len, ..
            } => Some(match framing {
                // Every byte may be escaped, plus the terminator.
                Framing::Escaped => max_len.saturating_mul(2).saturating_add(2),
                Framing::Raw | Framing::Delimited => max_len,
                Framing::Padded { width, .. } => width,
            }),
            _ => self.width(),
        }
    }

    /// How the bytes sort against the values: `desc` is `#[desc]`,
    /// `part_ordered` the type's [`KeyPart::ORDERED`] (binary codec only).
    pub const fn order(&self, desc: bool, part_ordered: bool) -> Order {
        let kept = if desc {
            Order::Descending
        } else {
            Order::Ascending
        };
        let ordered = match *self {
            FieldCodec::Binary => part_ordered,
            FieldCodec::Text { reverse, .. } => !reverse,
            FieldCodec::DescTimestamp { .. } => return Order::Descending,
            FieldCodec::DateText { .. } | FieldCodec::UuidText | FieldCodec::DecimalText { .. } => {
                true
            }
            FieldCodec::Bytes {
                framing, reverse, ..
            } => {
                matches!(reverse, Reverse::No)
                    && match framing {
                        Framing::Escaped | Framing::Raw => true,
                        // Right padding keeps order only when the fill is
                        // the smallest byte; left padding sorts by length.
                        Framing::Padded { fill, side, .. } => {
                            fill == 0 && matches!(side, crate::codec::framing::Side::Right)
                        }
                        Framing::Delimited => false,
                    }
            }
        };
        if ordered {
            kept
        } else {
            Order::Unordered
        }
    }

    /// What a text prefix of the field writes, or why it has none (`desc`
    /// is `#[desc]`). A prefix scan needs a value's stored bytes to start
    /// with its prefix's.
    pub const fn prefix_scan(&self, desc: bool) -> Result<PrefixScan, ScanRefusal> {
        match *self {
            FieldCodec::Text { reverse: true, .. } => Err(ScanRefusal::Reversed),
            FieldCodec::Text { .. } => Ok(PrefixScan::Digits),
            FieldCodec::DescTimestamp { .. } => Err(ScanRefusal::ReversedTimestamp),
            FieldCodec::Binary => Err(ScanRefusal::BinaryHasNoTextPrefix),
            FieldCodec::DateText { .. } | FieldCodec::UuidText | FieldCodec::DecimalText { .. } => {
                Err(ScanRefusal::TextFormTakesARange)
            }
            FieldCodec::Bytes { reverse, .. } if !matches!(reverse, Reverse::No) => {
                Err(ScanRefusal::Reversed)
            }
            FieldCodec::Bytes { framing, .. } => match framing {
                Framing::Padded {
                    side: crate::codec::framing::Side::Left,
                    ..
                } => Err(ScanRefusal::LeftPadded),
                Framing::Escaped if desc => Err(ScanRefusal::DescendingEscaped),
                _ => Ok(PrefixScan::Bytes),
            },
        }
    }

    /// How range bounds of the field are written, or why it has none: a
    /// range needs stored bytes that sort like the values. (A binary
    /// part's own order is checked where the range is built,
    /// [`KeyPart::ORDERED`].)
    pub const fn range_scan(&self) -> Result<RangeScan, ScanRefusal> {
        match *self {
            FieldCodec::Text { reverse: true, .. } => Err(ScanRefusal::Reversed),
            FieldCodec::DescTimestamp { .. } => Ok(RangeScan::Time),
            // Fixed-width text that sorts like the units it writes: bounds
            // are written as values are (a `%Y%m` bound is its month).
            FieldCodec::Text { .. }
            | FieldCodec::Binary
            | FieldCodec::DateText { .. }
            | FieldCodec::UuidText
            | FieldCodec::DecimalText { .. } => Ok(RangeScan::Values),
            FieldCodec::Bytes { reverse, .. } if !matches!(reverse, Reverse::No) => {
                Err(ScanRefusal::Reversed)
            }
            FieldCodec::Bytes { framing, .. } => match framing {
                Framing::Escaped | Framing::Raw => Ok(RangeScan::Values),
                Framing::Padded {
                    side: crate::codec::framing::Side::Left,
                    ..
                } => Err(ScanRefusal::LeftPadded),
                Framing::Padded { fill: 0, .. } => Ok(RangeScan::Values),
                Framing::Padded { .. } => Err(ScanRefusal::PaddedWithNonZeroFill),
                Framing::Delimited => Err(ScanRefusal::SeparatorJoined),
            },
        }
    }

    /// Whether the field can be left free (`any`): the fields after it
    /// need it to take one width. A binary part's `FIXED_LEN` is checked
    /// where the plan is built.
    pub const fn leaves_free(&self, optional: bool) -> Result<(), ScanRefusal> {
        match *self {
            _ if optional => Err(ScanRefusal::VariableWidth),
            FieldCodec::Bytes {
                framing: Framing::Padded { .. },
                ..
            } => Ok(()),
            FieldCodec::Bytes { .. } => Err(ScanRefusal::VariableWidth),
            _ => Ok(()),
        }
    }

    /// Whether the stored bytes of a text or bytes value are the value
    /// itself, so a decoded `&str` or `&[u8]` can point into the key.
    pub const fn borrows(&self, desc: bool) -> bool {
        match *self {
            FieldCodec::Bytes {
                framing, reverse, ..
            } => !desc && matches!(reverse, Reverse::No) && !matches!(framing, Framing::Escaped),
            _ => true,
        }
    }

    /// Whether the codec can write byte `b` (`desc` is `#[desc]`): a
    /// separator must be a byte no field of a separator-joined key ever
    /// writes. Text and bytes values are checked for it when written, so
    /// they answer `false`.
    pub fn can_write(&self, b: u8, desc: bool) -> bool {
        if desc {
            return true;
        }
        match *self {
            FieldCodec::Binary | FieldCodec::DescTimestamp { text: false } => true,
            FieldCodec::Bytes { .. } => false,
            FieldCodec::Text { .. } | FieldCodec::DescTimestamp { text: true } => {
                b.is_ascii_digit()
            }
            FieldCodec::UuidText => b.is_ascii_digit() || (b'a'..=b'f').contains(&b) || b == b'-',
            FieldCodec::DecimalText { .. } => b.is_ascii_digit() || b == b'.',
            FieldCodec::DateText { format } => {
                b.is_ascii_digit()
                    || format
                        .items()
                        .iter()
                        .any(|i| matches!(i, crate::codec::FormatItem::Literal(l) if *l == b))
            }
        }
    }
}

impl FieldLayout {
    /// A field's layout, its lengths and order computed by the rules
    /// above (its offset is filled in with the key's other fields, by the
    /// derive's constants). `part` is
    /// [`PartFacts::of`] the type for the binary codec, else
    /// [`PartFacts::NOT_BINARY`].
    #[allow(clippy::too_many_arguments)]
    pub const fn of(
        name: &'static str,
        rust_type: &'static str,
        value: ValueKind,
        codec: FieldCodec,
        optional: bool,
        desc: bool,
        part: PartFacts,
    ) -> FieldLayout {
        let tag = optional as usize;
        let (max_len, width) = match codec {
            FieldCodec::Binary => (part.max_len, part.fixed_len),
            _ => match codec.max_len() {
                Some(n) => (n, codec.width()),
                None => (0, None),
            },
        };
        FieldLayout {
            name,
            rust_type,
            value,
            codec,
            offset: None,
            // Saturating: a hand-written part may claim a huge MAX_LEN,
            // which the key's HBase assertion then reports.
            max_len: max_len.saturating_add(tag),
            fixed_len: if optional { None } else { width },
            order: codec.order(desc, part.ordered),
            optional,
            desc,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::framing::Side;
    use crate::codec::DateFormat;

    fn padded(fill: u8, side: Side) -> FieldCodec {
        FieldCodec::Bytes {
            framing: Framing::Padded {
                width: 8,
                fill,
                side,
            },
            max_len: 8,
            reverse: Reverse::No,
        }
    }

    #[test]
    fn widths_and_lengths() {
        assert_eq!(FieldCodec::UuidText.width(), Some(36));
        assert_eq!(FieldCodec::DescTimestamp { text: true }.width(), Some(19));
        assert_eq!(FieldCodec::DescTimestamp { text: false }.width(), Some(8));
        let month = FieldCodec::DateText {
            format: DateFormat::parse_const("%Y-%m"),
        };
        assert_eq!(month.width(), Some(7));
        let escaped = FieldCodec::Bytes {
            framing: Framing::Escaped,
            max_len: 10,
            reverse: Reverse::No,
        };
        assert_eq!((escaped.width(), escaped.max_len()), (None, Some(22)));
        assert_eq!(FieldCodec::Binary.max_len(), None);
        assert_eq!(int_digits(8, true), 19);
        assert_eq!(int_digits(16, false), 39);
        assert!(decimal_text_is_valid(10, 2) && !decimal_text_is_valid(3, 2));
    }

    #[test]
    fn order_and_scans() {
        assert_eq!(padded(0, Side::Right).order(false, true), Order::Ascending);
        assert_eq!(padded(0, Side::Right).order(true, true), Order::Descending);
        assert_eq!(padded(1, Side::Right).order(false, true), Order::Unordered);
        assert_eq!(padded(0, Side::Left).order(false, true), Order::Unordered);
        assert_eq!(FieldCodec::Binary.order(false, false), Order::Unordered);
        assert_eq!(
            FieldCodec::DescTimestamp { text: false }.order(false, true),
            Order::Descending
        );
        assert_eq!(
            padded(1, Side::Right).range_scan(),
            Err(ScanRefusal::PaddedWithNonZeroFill)
        );
        assert_eq!(
            padded(0, Side::Left).prefix_scan(false),
            Err(ScanRefusal::LeftPadded)
        );
        assert_eq!(
            FieldCodec::Binary.prefix_scan(false),
            Err(ScanRefusal::BinaryHasNoTextPrefix)
        );
        assert_eq!(set_exactly(true, true), Err(ScanRefusal::Hashed));
    }

    #[test]
    fn bytes_a_codec_can_write() {
        let date = FieldCodec::DateText {
            format: DateFormat::parse_const("%Y/%m"),
        };
        assert!(date.can_write(b'/', false) && !date.can_write(b'_', false));
        assert!(FieldCodec::UuidText.can_write(b'-', false));
        assert!(!FieldCodec::UuidText.can_write(b'g', false));
        assert!(FieldCodec::Binary.can_write(b'_', false));
    }

    #[test]
    fn refusals_name_the_reason_types() {
        use crate::scan;
        fn name<T>() -> &'static str {
            let full = core::any::type_name::<T>();
            full.rsplit("::").next().unwrap_or(full)
        }
        let pairs = [
            (
                ScanRefusal::LeftPadded,
                name::<scan::LeftPaddedFieldsHaveNoPrefixOrRangeOrder>(),
            ),
            (
                ScanRefusal::Reversed,
                name::<scan::ReversedFieldsHaveNoPrefixOrRangeOrder>(),
            ),
            (
                ScanRefusal::BinaryHasNoTextPrefix,
                name::<scan::BinaryFieldsHaveNoTextPrefix>(),
            ),
            (
                ScanRefusal::DescendingEscaped,
                name::<scan::DescendingEscapedFieldsHaveNoPrefix>(),
            ),
            (
                ScanRefusal::ReversedTimestamp,
                name::<scan::ReversedTimestampsHaveNoPrefix>(),
            ),
            (
                ScanRefusal::SeparatorJoined,
                name::<scan::SeparatorJoinedTextHasNoRangeOrder>(),
            ),
            (
                ScanRefusal::PaddedWithNonZeroFill,
                name::<scan::PaddedFieldsWithNonZeroFillHaveNoRangeOrder>(),
            ),
            (
                ScanRefusal::Hashed,
                name::<scan::HashedFieldsAreSetExactly>(),
            ),
            (
                ScanRefusal::Optional,
                name::<scan::OptionalFieldsAreSetExactly>(),
            ),
            (
                ScanRefusal::VariableWidth,
                name::<scan::VariableWidthFieldsCannotBeLeftFree>(),
            ),
            (
                ScanRefusal::TextFormTakesARange,
                name::<scan::TextFormsTakeARangeNotAPrefix>(),
            ),
        ];
        for (refusal, ty) in pairs {
            assert_eq!(refusal.reason_type(), ty);
        }
    }
}
