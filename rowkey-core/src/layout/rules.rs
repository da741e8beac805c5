//! The format rules of one field, by its [`FieldCodec`]: the bytes it
//! takes, how they sort, which scans they answer, whether a decoded value
//! can borrow them and which bytes the codec can write.
//!
//! Each codec states its rules once, as data (`CodecRules`) beside its
//! byte functions; the methods here read them, through the one place a
//! `FieldCodec` names its codec. `rowkey-derive` evaluates them while it
//! expands a key (it depends on this crate) and bakes the answers into
//! the generated constants; the layout, the interpreter
//! ([`dynamic`](super::dynamic)) and tools read them here.

use super::{FieldCodec, FieldLayout, Order, ValueKind};
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
/// The most bytes a binary `rust_decimal::Decimal` takes: a sign and
/// exponent byte, then up to 15 bytes of base-100 digits.
pub const DECIMAL_PART_MAX_LEN: usize = 16;
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
    /// A Phoenix key column other than `VARCHAR` or `CHAR`: no text
    /// prefix.
    PhoenixNotText,
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
            ScanRefusal::PhoenixNotText => "PhoenixPrefixesAreOnVarcharOrChar",
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

/// One codec's format rules as data: each codec states them once, in a
/// `const fn rules` beside its byte functions, and [`FieldCodec`]'s
/// rule methods below read them. Data built by a `const fn`, not trait
/// methods: derived layouts evaluate the rules in constants
/// ([`FieldLayout::of`]), where no trait method can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CodecRules {
    /// How many bytes a value takes.
    pub len: Lengths,
    /// How the bytes sort against the values, before `#[desc]`.
    pub sorts: Sorts,
    /// What a text prefix (`_starts_with`) writes, or why there is none.
    pub prefix_scan: Result<PrefixScan, ScanRefusal>,
    /// How range bounds are written, or why there are none.
    pub range_scan: Result<RangeScan, ScanRefusal>,
    /// The stored bytes of a text or bytes value are the value itself, so
    /// a decoded `&str` or `&[u8]` can point into the key (vacuously true
    /// for codecs of other values).
    pub borrows: bool,
    /// The bytes a value can hold unchecked: a separator must be none of
    /// them. Text and bytes values are checked for the separator when
    /// written, so they write none.
    pub writes: ByteSet,
    /// Where a stored value ends.
    pub ends: Ends,
}

impl CodecRules {
    /// A type's values as fixed-width text of their own (a date format, a
    /// UUID's or a decimal's text): `width` bytes of `writes`, sorting as
    /// the values do, so ranges work; a text prefix would be of the text,
    /// not of the values, so there is none.
    pub(crate) const fn text_form(width: usize, writes: ByteSet) -> CodecRules {
        CodecRules {
            len: Lengths::Fixed(width),
            sorts: Sorts::LikeValues,
            prefix_scan: Err(ScanRefusal::TextFormTakesARange),
            range_scan: Ok(RangeScan::Values),
            borrows: true,
            writes,
            ends: Ends::Itself,
        }
    }
}

/// How many bytes a codec's values take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lengths {
    /// As the type's [`KeyPart`] says ([`PartFacts`]): the binary codec.
    OfType,
    /// Always this many.
    Fixed(usize),
    /// At most this many.
    UpTo(usize),
}

/// How a codec's bytes sort against its values, before `#[desc]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sorts {
    /// Like the values.
    LikeValues,
    /// As the type's [`KeyPart::ORDERED`] says: the binary codec.
    AsTheTypeSays,
    /// Not like the values (reversed, left-padded, delimited).
    Unordered,
    /// Opposite to the values whatever `#[desc]` says (`#[desc_ts]`).
    Descending,
}

impl Sorts {
    /// The field's [`Order`]: `desc` is `#[desc]`, `part_ordered` the
    /// type's [`KeyPart::ORDERED`].
    pub(crate) const fn order(self, desc: bool, part_ordered: bool) -> Order {
        let ordered = match self {
            Sorts::Descending => return Order::Descending,
            Sorts::LikeValues => true,
            Sorts::AsTheTypeSays => part_ordered,
            Sorts::Unordered => false,
        };
        match (ordered, desc) {
            (false, _) => Order::Unordered,
            (true, false) => Order::Ascending,
            (true, true) => Order::Descending,
        }
    }
}

/// Where a stored value ends, which says whether one value's bytes can be
/// a prefix of another's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ends {
    /// Where its own bytes say: a fixed width, a terminator.
    Itself,
    /// At the key's separator, or the key's end after the last field.
    AtSeparator,
    /// At the key's end: only the last field can be raw.
    AtKeyEnd,
}

/// A set of bytes, built in constants: the bytes a codec can write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ByteSet([u64; 4]);

impl ByteSet {
    /// No byte.
    pub(crate) const NONE: ByteSet = ByteSet([0; 4]);
    /// Every byte: binary values.
    pub(crate) const ALL: ByteSet = ByteSet([u64::MAX; 4]);
    /// `0` to `9`.
    pub(crate) const DIGITS: ByteSet = ByteSet::NONE.with_all(b"0123456789");

    /// This set and `b`.
    pub(crate) const fn with(self, b: u8) -> ByteSet {
        let mut words = self.0;
        words[(b / 64) as usize] |= 1 << (b % 64);
        ByteSet(words)
    }

    /// This set and every byte of `bytes`.
    pub(crate) const fn with_all(self, bytes: &[u8]) -> ByteSet {
        let mut set = self;
        let mut i = 0;
        while i < bytes.len() {
            set = set.with(bytes[i]);
            i += 1;
        }
        set
    }

    /// Whether `b` is in the set.
    pub(crate) const fn contains(&self, b: u8) -> bool {
        self.0[(b / 64) as usize] & (1 << (b % 64)) != 0
    }
}

// The rules each codec states ([`CodecRules`]), asked of the codec a
// `FieldCodec` names. `#[desc]` changes a codec's rules only where the
// method takes it: the lengths and the range rule never depend on it.
impl FieldCodec {
    /// Bytes every value takes when the codec alone fixes them; `None` for
    /// the binary codec (its type says, [`PartFacts`]) and unpadded text.
    pub const fn width(&self) -> Option<usize> {
        match self.rules(false).len {
            Lengths::Fixed(n) => Some(n),
            Lengths::OfType | Lengths::UpTo(_) => None,
        }
    }

    /// The most bytes a value takes (no `Option` tag); `None` for the
    /// binary codec, whose type says ([`PartFacts`]).
    pub const fn max_len(&self) -> Option<usize> {
        match self.rules(false).len {
            Lengths::Fixed(n) | Lengths::UpTo(n) => Some(n),
            Lengths::OfType => None,
        }
    }

    /// How the bytes sort against the values: `desc` is `#[desc]`,
    /// `part_ordered` the type's [`KeyPart::ORDERED`] (binary codec only).
    pub const fn order(&self, desc: bool, part_ordered: bool) -> Order {
        self.rules(desc).sorts.order(desc, part_ordered)
    }

    /// What a text prefix of the field writes, or why it has none (`desc`
    /// is `#[desc]`). A prefix scan needs a value's stored bytes to start
    /// with its prefix's.
    pub const fn prefix_scan(&self, desc: bool) -> Result<PrefixScan, ScanRefusal> {
        self.rules(desc).prefix_scan
    }

    /// How range bounds of the field are written, or why it has none: a
    /// range needs stored bytes that sort like the values. (A binary
    /// part's own order is checked where the range is built,
    /// [`KeyPart::ORDERED`].)
    pub const fn range_scan(&self) -> Result<RangeScan, ScanRefusal> {
        self.rules(false).range_scan
    }

    /// Whether the field can be left free (`any`): the fields after it
    /// need it to take one width. A binary part's `FIXED_LEN` is checked
    /// where the plan is built.
    pub const fn leaves_free(&self, optional: bool) -> Result<(), ScanRefusal> {
        match self.rules(false).len {
            _ if optional => Err(ScanRefusal::VariableWidth),
            Lengths::UpTo(_) => Err(ScanRefusal::VariableWidth),
            Lengths::Fixed(_) | Lengths::OfType => Ok(()),
        }
    }

    /// Whether the stored bytes of a text or bytes value are the value
    /// itself, so a decoded `&str` or `&[u8]` can point into the key.
    pub const fn borrows(&self, desc: bool) -> bool {
        self.rules(desc).borrows
    }

    /// Whether the codec can write byte `b` (`desc` is `#[desc]`): a
    /// separator must be a byte no field of a separator-joined key ever
    /// writes. Text and bytes values are checked for it when written, so
    /// they answer `false`.
    pub fn can_write(&self, b: u8, desc: bool) -> bool {
        // Inverted bytes can be any byte.
        desc || self.rules(desc).writes.contains(b)
    }

    /// Whether the codec writes bytes of every value, whatever they are
    /// (the binary codecs), rather than text: a separator-joined key
    /// cannot hold such a field.
    pub fn writes_any_byte(&self) -> bool {
        self.rules(false).writes == ByteSet::ALL
    }

    /// Whether no stored value is a prefix of another, for the field in
    /// key position `last` (the last field or not): every codec but raw
    /// bytes, and separator-joined text that ends the key (nothing
    /// delimits it).
    pub(crate) const fn prefix_free(&self, last: bool) -> bool {
        match self.rules(false).ends {
            Ends::Itself => true,
            Ends::AtSeparator => !last,
            Ends::AtKeyEnd => false,
        }
    }

    /// Whether only the last field of a key can have this codec: its
    /// values run to the key's end.
    #[cfg(feature = "json")]
    pub(crate) const fn ends_the_key(&self) -> bool {
        matches!(self.rules(false).ends, Ends::AtKeyEnd)
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
        let rules = codec.rules(desc);
        let (max_len, width) = match rules.len {
            Lengths::OfType => (part.max_len, part.fixed_len),
            Lengths::Fixed(n) => (n, Some(n)),
            Lengths::UpTo(n) => (n, None),
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
            order: rules.sorts.order(desc, part.ordered),
            optional,
            desc,
        }
    }
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;
