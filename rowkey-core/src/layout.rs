//! [`Layout`]: the static description of a derived key, for people
//! ([`Layout::explain`]), tools (serde, behind the `serde` feature) and the
//! scan and salt planners that build on it.

use crate::codec::framing::Side;
use crate::codec::{DateFormat, Framing, Reverse};
use crate::salt::{BucketFormat, HashPrefixPlan, SaltHash, SaltPlan};
use crate::split::SplitKeys;
use core::fmt::{self, Write};

/// How a derived key is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Layout {
    /// The struct's name.
    pub name: &'static str,
    /// The byte between fields, for text keys (`#[rowkey(separator = "_")]`).
    pub separator: Option<char>,
    /// The longest key.
    pub max_len: usize,
    /// `Some(n)` when every key is `n` bytes.
    pub fixed_len: Option<usize>,
    /// What comes before the first field: a salt bucket or a hash prefix.
    pub prefix: Option<KeyPrefix>,
    /// The fields in key order.
    pub fields: &'static [FieldLayout],
}

/// Bytes a key starts with that are not a field: computed from fields to
/// spread sequential keys over regions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum KeyPrefix {
    /// `#[salt(..)]`: a bucket number.
    Salt(SaltPlan),
    /// `#[hash_prefix(..)]`: the start of a hash of one field.
    HashPrefix(HashPrefixPlan),
}

impl KeyPrefix {
    /// Bytes before the first field.
    pub const fn len(&self) -> usize {
        match self {
            KeyPrefix::Salt(s) => s.prefix_len(),
            KeyPrefix::HashPrefix(h) => h.prefix_len(),
        }
    }

    /// Never true: a prefix has at least one byte (for clippy's `len`
    /// convention).
    pub const fn is_empty(&self) -> bool {
        false
    }
}

/// One field of a [`Layout`].
///
/// ```
/// use rowkey::{FieldCodec, Order, RowKey};
///
/// #[derive(RowKey)]
/// struct Spend<'a> {
///     #[text(width = 6)]
///     month: u32,
///     #[pad(width = 10, fill = 0x01, align = left)]
///     user: &'a str,
///     #[desc_ts]
///     at_ms: i64,
/// }
///
/// let at = Spend::layout().field("at_ms").unwrap();
/// assert_eq!(at.offset, Some(16));
/// assert_eq!(at.fixed_len, Some(8));
/// assert_eq!(at.order, Order::Descending);
/// assert_eq!(at.codec, FieldCodec::DescTimestamp { text: false });
/// // Left padding sorts by length first, so the layout promises no order.
/// assert_eq!(Spend::layout().fields[1].order, Order::Unordered);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FieldLayout {
    /// The field's name.
    pub name: &'static str,
    /// The field's Rust type, as written.
    pub rust_type: &'static str,
    /// How its value is written.
    pub codec: FieldCodec,
    /// Byte offset in the key, when every field before it is fixed-width.
    pub offset: Option<usize>,
    /// The most bytes it takes (with its separator-free framing).
    pub max_len: usize,
    /// `Some(n)` when it always takes `n` bytes.
    pub fixed_len: Option<usize>,
    /// How the field's bytes sort relative to its values.
    pub order: Order,
    /// An `Option<T>`: one tag byte before the value.
    pub optional: bool,
    /// `#[desc]`: every byte the field writes is inverted (the option tag
    /// too), whatever [`order`](Self::order) says of the result.
    pub desc: bool,
}

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
    /// A non-negative decimal as zero-padded digits with a fixed number of
    /// decimals (`#[text(width, scale)]`).
    DecimalText {
        /// Characters, the `.` included.
        width: usize,
        /// Digits after the `.`.
        scale: u32,
    },
}

/// How a field's bytes sort.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Order {
    /// Like the values.
    Ascending,
    /// Opposite to the values (`#[desc]`, `#[desc_ts]`: newest first).
    Descending,
    /// Not like the values (reversed, left-padded, separator-delimited
    /// variable text): equality works, ranges over values do not.
    Unordered,
}

impl FieldLayout {
    /// The digits codec of a `#[text]` integer field, as the derive writes
    /// it (`None` for other codecs).
    pub fn digits(&self) -> Option<crate::codec::Digits> {
        match self.codec {
            FieldCodec::Text { width, reverse } => Some(crate::codec::Digits {
                width,
                reverse,
                desc: self.desc,
            }),
            _ => None,
        }
    }

    /// The codec of a text or bytes field in a key whose separator is
    /// `separator` (`None` for other codecs).
    pub fn bytes_codec(&self, separator: Option<u8>) -> Option<crate::codec::BytesCodec> {
        match self.codec {
            FieldCodec::Bytes {
                framing,
                max_len,
                reverse,
            } => Some(crate::codec::BytesCodec {
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

impl Layout {
    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<&FieldLayout> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// The salt, if the key has one.
    pub fn salt(&self) -> Option<&SaltPlan> {
        match &self.prefix {
            Some(KeyPrefix::Salt(s)) => Some(s),
            _ => None,
        }
    }

    /// The keys that pre-split a table of these keys into one region per
    /// salt bucket; none (one region) for an unsalted key. For a hash
    /// prefix, pick a region count and use [`SplitKeys::hex_string`] (hex
    /// prefixes) or [`SplitKeys::uniform`] (binary ones).
    pub fn split_keys(&self) -> SplitKeys {
        match self.salt() {
            Some(s) => SplitKeys::new(s.split_keys()),
            None => SplitKeys::default(),
        }
    }

    /// A table a person can read: one line per field with offset, width,
    /// codec and order.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// #[derive(RowKey)]
    /// struct Op {
    ///     uid: u64,
    ///     #[desc_ts] at: i64,
    /// }
    /// let text = Op::layout().explain();
    /// assert!(text.starts_with("Op: 16 bytes (fixed)"));
    /// assert!(text.contains("i64::MAX - ts"));
    /// ```
    pub fn explain(&self) -> String {
        let mut s = String::new();
        let _ = self.write_explain(&mut s);
        s
    }

    fn write_explain(&self, s: &mut String) -> fmt::Result {
        match self.fixed_len {
            Some(n) => write!(s, "{}: {n} bytes (fixed)", self.name)?,
            None => write!(s, "{}: up to {} bytes", self.name, self.max_len)?,
        }
        if let Some(sep) = self.separator {
            write!(s, ", fields joined by '{sep}'")?;
        }
        s.push('\n');
        match &self.prefix {
            Some(KeyPrefix::Salt(p)) => describe_salt(s, p)?,
            Some(KeyPrefix::HashPrefix(p)) => describe_hash_prefix(s, p)?,
            None => {}
        }
        let name_w = self
            .fields
            .iter()
            .map(|f| f.name.len())
            .max()
            .unwrap_or(4)
            .max(5);
        writeln!(
            s,
            "  {:<name_w$}  offset  width    order       codec",
            "field"
        )?;
        for f in self.fields {
            let offset = f.offset.map_or("-".to_string(), |o| o.to_string());
            let width = match f.fixed_len {
                Some(n) => n.to_string(),
                None => format!("<={}", f.max_len),
            };
            let order = match f.order {
                Order::Ascending => "ascending",
                Order::Descending => "descending",
                Order::Unordered => "none",
            };
            write!(
                s,
                "  {:<name_w$}  {offset:<6}  {width:<7}  {order:<10}  ",
                f.name
            )?;
            if f.optional {
                s.push_str("Option (tag 00 = None, 01 = Some), then ");
            }
            describe_codec(s, &f.codec, f.rust_type)?;
            s.push('\n');
        }
        Ok(())
    }
}

fn describe_salt(s: &mut String, p: &SaltPlan) -> fmt::Result {
    write!(s, "  salt: {} buckets as ", p.buckets)?;
    match p.format {
        BucketFormat::Text if p.width() == 1 => s.push_str("1 digit"),
        BucketFormat::Text => write!(s, "{} digits", p.width())?,
        BucketFormat::Binary if p.width() == 1 => s.push_str("1 binary byte"),
        BucketFormat::Binary => write!(s, "{} binary bytes", p.width())?,
    }
    let hash = match p.hash {
        SaltHash::Default => "rowkey's default hash".to_string(),
        SaltHash::Java => "Java String.hashCode, Math.abs, %".to_string(),
        SaltHash::Phoenix => "Apache Phoenix's salt hash of the rest of the key".to_string(),
        SaltHash::Md5 => "md5".to_string(),
        SaltHash::Custom(f) => format!("{f}(&key)"),
    };
    write!(s, ", bucket = {hash}")?;
    if !p.inputs.is_empty() && p.hash != SaltHash::Phoenix {
        write!(s, " of {}", p.inputs.join(" + "))?;
    }
    if let Some(g) = p.groups {
        write!(
            s,
            "; {} groups of {} buckets chosen by {}",
            g.groups, g.per_group, g.field
        )?;
    }
    s.push('\n');
    Ok(())
}

fn describe_hash_prefix(s: &mut String, p: &HashPrefixPlan) -> fmt::Result {
    writeln!(
        s,
        "  hash prefix: first {} {} of {:?} of {}",
        p.len,
        if p.binary { "bytes" } else { "hex characters" },
        p.hash,
        p.field
    )
}

/// How a binary part's bytes look, by its type as written: signed integers
/// flip the sign bit, unsigned ones are plain big-endian, anything else
/// (`bool`, `char`, arrays, enums, newtypes, your own parts) is written by
/// its `KeyPart` impl.
fn binary_form(ty: &str) -> &'static str {
    let inner = ty
        .strip_prefix("Option<")
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(ty)
        .trim();
    match inner {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "binary (big-endian, sign bit flipped)",
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "binary (big-endian)",
        "f32" | "f64" => "binary (IEEE 754 bits in total order; -0.0 as 0.0, NaN refused)",
        _ => "its KeyPart bytes",
    }
}

fn describe_codec(s: &mut String, codec: &FieldCodec, ty: &str) -> fmt::Result {
    match *codec {
        FieldCodec::Binary => write!(s, "{ty} as {}", binary_form(ty)),
        FieldCodec::Text { width, reverse } => {
            write!(s, "{ty} as {width} zero-padded decimal digits")?;
            if reverse {
                s.push_str(", digits reversed");
            }
            Ok(())
        }
        FieldCodec::Bytes {
            framing,
            max_len,
            reverse,
        } => {
            match framing {
                Framing::Escaped => write!(
                    s,
                    "{ty} (<= {max_len} bytes), 00 escaped as 00 FF, ends with 00 01"
                )?,
                Framing::Raw => write!(s, "{ty} (<= {max_len} bytes) as is, to the key's end")?,
                Framing::Delimited => write!(s, "{ty} (<= {max_len} bytes) up to the separator")?,
                Framing::Padded { width, fill, side } => write!(
                    s,
                    "{ty} padded on the {} with {} to {width} bytes",
                    match side {
                        Side::Left => "left",
                        Side::Right => "right",
                    },
                    crate::KeyDisplay(&[fill])
                )?,
            }
            match reverse {
                Reverse::No => Ok(()),
                Reverse::Chars => s.write_str(", reversed"),
                Reverse::Segments(sep) => write!(s, ", '{}'-segments reversed", sep as char),
            }
        }
        FieldCodec::DateText { format } => write!(
            s,
            "{ty} as {} characters of text, format \"{format}\"",
            format.width()
        ),
        FieldCodec::UuidText => write!(s, "{ty} as 36 lowercase hyphenated characters"),
        FieldCodec::DecimalText { width, scale } => write!(
            s,
            "{ty} as {width} zero-padded characters with {scale} decimals"
        ),
        FieldCodec::DescTimestamp { text } => write!(
            s,
            "reversed timestamp i64::MAX - ts as {}",
            if text {
                "19 digits"
            } else {
                "8 bytes big-endian"
            }
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{BytesCodec, Digits};

    fn field(codec: FieldCodec, desc: bool) -> FieldLayout {
        FieldLayout {
            name: "f",
            rust_type: "T",
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
