//! [`Fingerprint`]: a 64-bit hash of what decides a layout's bytes and
//! what they mean, the same on every build, platform and compiler; the
//! encoding it hashes is documented on [`Layout::canonical_bytes`].

use super::{FieldCodec, FieldLayout, KeyPrefix, Layout, ValueKind};
use crate::codec::date_format::FormatItem;
use crate::codec::framing::Side;
use crate::codec::phoenix::PhoenixType;
use crate::codec::{Framing, Reverse};
use crate::salt::{BucketFormat, GroupRule, PrefixHash, SaltHash, SaltPlan};
use core::fmt;

/// What the canonical bytes start with: the encoding's name and version.
const MAGIC: &[u8] = b"rowkey-layout-fp/1";

/// A layout's fingerprint: equal for layouts whose keys have the same
/// bytes with the same meaning ([`Layout::canonical_bytes`] says what
/// is in it and what is not). Shown and
/// parsed as 16 lowercase hex digits.
///
/// ```
/// use rowkey::RowKey;
/// use rowkey::layout::Fingerprint;
///
/// #[derive(RowKey)]
/// struct Op { uid: u64, #[desc_ts] at: i64 }
/// #[derive(RowKey)]
/// struct Renamed { user: u64, #[desc_ts] when: i64 }
/// #[derive(RowKey)]
/// struct Ascending { uid: u64, at: i64 }
///
/// let fp = Op::layout().fingerprint();
/// assert_eq!(fp, Renamed::layout().fingerprint()); // names are not the format
/// assert_ne!(fp, Ascending::layout().fingerprint());
/// assert_eq!(fp.to_string().parse::<Fingerprint>(), Ok(fp));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint(pub u64);

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl core::str::FromStr for Fingerprint {
    type Err = String;

    /// 16 hex digits, as [`Display`](fmt::Display) writes them.
    fn from_str(s: &str) -> Result<Self, String> {
        if s.len() != 16 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("`{s}` is not a fingerprint (16 hex digits)"));
        }
        u64::from_str_radix(s, 16)
            .map(Fingerprint)
            .map_err(|e| format!("`{s}` is not a fingerprint: {e}"))
    }
}

/// 64-bit FNV-1a of `bytes`.
///
/// ```
/// // The reference vectors of the FNV authors.
/// assert_eq!(rowkey::layout::fnv1a_64(b""), 0xcbf2_9ce4_8422_2325);
/// assert_eq!(rowkey::layout::fnv1a_64(b"a"), 0xaf63_dc4c_8601_ec8c);
/// ```
pub const fn fnv1a_64(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    hash
}

impl Layout {
    /// The fingerprint of the layout: [`fnv1a_64`] of its
    /// [canonical bytes](Self::canonical_bytes). See [`Fingerprint`].
    pub fn fingerprint(&self) -> Fingerprint {
        Fingerprint(fnv1a_64(&self.canonical_bytes()))
    }

    /// What the fingerprint hashes: the layout's format with no name in
    /// it, written by this crate's own code (no `Hash` impl, no `usize`,
    /// no pointer: nothing that differs between builds, platforms or
    /// compilers) and hashed with 64-bit FNV-1a ([`fnv1a_64`]). In order (numbers big-endian, a string as its `u32` byte length then
    /// its UTF-8, `opt(x)` as `00` for none or `01` then `x`):
    ///
    /// 1. the magic `rowkey-layout-fp/1`;
    /// 2. the separator: `opt(u32)`, its code point;
    /// 3. the prefix: `00` none; `01` a salt: `u32` buckets, the format (`00`
    ///    text, `01` binary), `opt(u8)` its separator, the hash (`00` default,
    ///    `01` Java, `02` Phoenix, `03` MD5, `04` then the custom function's
    ///    path), `u32` count then each input as the `u32` *position* of its
    ///    field, `opt` groups (`u32` position of the group field, `u32`
    ///    groups, `u32` per group, the rule: `00` enum, `01` then `i128` lo
    ///    and hi, `02` then the function's path); `02` a hash prefix: `u64`
    ///    length, binary `00`/`01`, the hash (`00` MD5, `01` default), `u32`
    ///    position of its field, `opt(u8)` separator;
    /// 4. `u32` field count, then per field: its codec (a tag and every
    ///    parameter: widths, framing, fill, side, reversal, the date format's
    ///    text), `optional` and `desc` as `00`/`01`, its value kind (integer
    ///    width and sign, float width, array length, an enum's variants in
    ///    order by name), `u64` max length and `opt(u64)` fixed length.
    ///
    /// Left out, because they change no byte and no byte's meaning: the
    /// struct's and the fields' names, the Rust type as written, an enum's and
    /// a newtype's *type* names (a newtype is its inner kind), which crate a
    /// date comes from (chrono, time and jiff write the same bytes), the
    /// field's declared [`Order`](crate::Order) (read from the codec) and the
    /// layout format version. A function a salt calls by path (`hash = f`,
    /// `group = g`) is in by its path: the layout cannot see into it, and a
    /// different path may be a different function. What a hand-written
    /// `KeyPart` writes is known only by its lengths.
    ///
    /// ```
    /// # #[derive(rowkey::RowKey)] struct Op { uid: u64 }
    /// use rowkey::RowKey;
    /// let bytes = Op::layout().canonical_bytes();
    /// assert!(bytes.starts_with(b"rowkey-layout-fp/1"));
    /// assert!(!bytes.windows(3).any(|w| w == b"uid"));
    /// ```
    pub fn canonical_bytes(&self) -> Vec<u8> {
        let mut out = Canonical(MAGIC.to_vec());
        out.opt(self.separator.map(|c| c as u32), |o, c| o.u32(c));
        match &self.prefix {
            None => out.byte(0),
            Some(KeyPrefix::Salt(s)) => {
                out.byte(1);
                self.salt_bytes(&mut out, s);
            }
            Some(KeyPrefix::HashPrefix(h)) => {
                out.byte(2);
                out.u64(h.len as u64);
                out.flag(h.binary);
                out.byte(match h.hash {
                    PrefixHash::Md5 => 0,
                    PrefixHash::Default => 1,
                });
                out.u32(self.position(h.field));
                out.opt(h.separator, |o, b| o.byte(b));
            }
        }
        out.u32(self.fields.len() as u32);
        for f in self.fields {
            field_bytes(&mut out, f);
        }
        out.0
    }

    /// The position of the field called `name`, as the canonical bytes
    /// name a field (`u32::MAX` for none: a layout from JSON is checked
    /// to name only its fields).
    fn position(&self, name: &str) -> u32 {
        self.fields
            .iter()
            .position(|f| f.name == name)
            .map_or(u32::MAX, |i| i as u32)
    }

    fn salt_bytes(&self, out: &mut Canonical, s: &SaltPlan) {
        out.u32(s.buckets);
        out.byte(match s.format {
            BucketFormat::Text => 0,
            BucketFormat::Binary => 1,
        });
        out.opt(s.separator, |o, b| o.byte(b));
        match s.hash {
            SaltHash::Default => out.byte(0),
            SaltHash::Java => out.byte(1),
            SaltHash::Phoenix => out.byte(2),
            SaltHash::Md5 => out.byte(3),
            SaltHash::Custom(path) => {
                out.byte(4);
                out.str(path);
            }
        }
        out.u32(s.inputs.len() as u32);
        for input in s.inputs {
            out.u32(self.position(input));
        }
        out.opt(s.groups, |o, g| {
            o.u32(self.position(g.field));
            o.u32(g.groups);
            o.u32(g.per_group);
            match g.rule {
                GroupRule::Enum => o.byte(0),
                GroupRule::Range { lo, hi } => {
                    o.byte(1);
                    o.0.extend_from_slice(&lo.to_be_bytes());
                    o.0.extend_from_slice(&hi.to_be_bytes());
                }
                GroupRule::Func(path) => {
                    o.byte(2);
                    o.str(path);
                }
            }
        });
    }
}

pub(crate) fn field_bytes(out: &mut Canonical, f: &FieldLayout) {
    codec_bytes(out, &f.codec);
    out.flag(f.optional);
    out.flag(f.desc);
    kind_bytes(out, &f.value);
    out.u64(f.max_len as u64);
    out.opt(f.fixed_len, |o, n| o.u64(n as u64));
}

fn codec_bytes(out: &mut Canonical, codec: &FieldCodec) {
    match *codec {
        FieldCodec::Binary => out.byte(0),
        FieldCodec::Text { width, reverse } => {
            out.byte(1);
            out.u64(width as u64);
            out.flag(reverse);
        }
        FieldCodec::Bytes {
            framing,
            max_len,
            reverse,
        } => {
            out.byte(2);
            match framing {
                Framing::Escaped => out.byte(0),
                Framing::Raw => out.byte(1),
                Framing::Padded { width, fill, side } => {
                    out.byte(2);
                    out.u64(width as u64);
                    out.byte(fill);
                    out.flag(side == Side::Right);
                }
                Framing::Delimited => out.byte(3),
            }
            out.u64(max_len as u64);
            match reverse {
                Reverse::No => out.byte(0),
                Reverse::Chars => out.byte(1),
                Reverse::Segments(sep) => {
                    out.byte(2);
                    out.byte(sep);
                }
            }
        }
        FieldCodec::DescTimestamp { text } => {
            out.byte(3);
            out.flag(text);
        }
        FieldCodec::DateText { format } => {
            out.byte(4);
            // The format's items, each a tag (and its byte or digits).
            out.u32(format.items().len() as u32);
            for item in format.items() {
                let (tag, arg) = match *item {
                    FormatItem::Literal(c) => (0, c),
                    FormatItem::Year => (1, 0),
                    FormatItem::Month => (2, 0),
                    FormatItem::Day => (3, 0),
                    FormatItem::DayOfYear => (4, 0),
                    FormatItem::Hour => (5, 0),
                    FormatItem::Minute => (6, 0),
                    FormatItem::Second => (7, 0),
                    FormatItem::Fraction(d) => (8, d),
                };
                out.byte(tag);
                out.byte(arg);
            }
        }
        FieldCodec::UuidText => out.byte(5),
        FieldCodec::DecimalText { width, scale } => {
            out.byte(6);
            out.u64(width as u64);
            out.u32(scale);
        }
        FieldCodec::Phoenix { ty, last, max_len } => {
            out.byte(7);
            // The type by its place among Phoenix's, then its length,
            // precision and scale (0 for none).
            out.u32(ty.bit().trailing_zeros());
            let (a, b) = match ty {
                PhoenixType::Varchar { max_chars } => (max_chars.unwrap_or(0), 0),
                PhoenixType::Char { len } | PhoenixType::Binary { len } => (len, 0),
                PhoenixType::Decimal { precision, scale } => (
                    u32::from(precision.unwrap_or(0)),
                    u32::from(scale.unwrap_or(0)),
                ),
                _ => (0, 0),
            };
            out.u32(a);
            out.u32(b);
            out.flag(last);
            out.u64(max_len as u64);
        }
    }
}

pub(crate) fn kind_bytes(out: &mut Canonical, kind: &ValueKind) {
    // A newtype is stored as its inner value; which crate a date comes
    // from changes no byte.
    match *kind.unwrapped() {
        ValueKind::Int { bytes, signed } => {
            out.byte(0);
            out.byte(bytes);
            out.flag(signed);
        }
        ValueKind::Float { bytes } => {
            out.byte(1);
            out.byte(bytes);
        }
        ValueKind::Bool => out.byte(2),
        ValueKind::Char => out.byte(3),
        ValueKind::Unit => out.byte(4),
        ValueKind::ByteArray(n) => {
            out.byte(5);
            out.u64(n as u64);
        }
        ValueKind::Text => out.byte(6),
        ValueKind::Bytes => out.byte(7),
        ValueKind::Uuid => out.byte(8),
        ValueKind::Date(_) => out.byte(9),
        ValueKind::DateTime(_) => out.byte(10),
        ValueKind::Instant(_) => out.byte(11),
        ValueKind::Decimal => out.byte(12),
        ValueKind::Option(inner) => {
            out.byte(13);
            kind_bytes(out, inner);
        }
        ValueKind::Enum { variants, .. } => {
            out.byte(14);
            out.u32(variants.len() as u32);
            for v in variants {
                out.str(v);
            }
        }
        ValueKind::Opaque => out.byte(15),
        ValueKind::Bits { fields, .. } => {
            out.byte(16);
            out.u32(fields.len() as u32);
            for f in fields {
                out.str(f.name);
                out.byte(f.bits);
                out.byte(u8::from(f.boolean));
            }
        }
        ValueKind::Newtype { .. } => unreachable!("unwrapped above"),
    }
}

/// The canonical bytes being written.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Canonical(Vec<u8>);

impl Canonical {
    fn byte(&mut self, b: u8) {
        self.0.push(b);
    }
    fn flag(&mut self, b: bool) {
        self.0.push(u8::from(b));
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_be_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_be_bytes());
    }
    fn str(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.0.extend_from_slice(s.as_bytes());
    }
    fn opt<T>(&mut self, v: Option<T>, put: impl FnOnce(&mut Self, T)) {
        match v {
            None => self.byte(0),
            Some(v) => {
                self.byte(1);
                put(self, v);
            }
        }
    }
}

#[cfg(test)]
#[path = "fingerprint_tests.rs"]
mod tests;
