//! A [`Layout`] read back from the JSON that `Key::layout()` serialises to
//! (feature `json`): what tools without the derived type load.
//!
//! The layout's strings are `&'static` (a derived layout is a constant),
//! so a loaded layout's names are leaked and it lives for the rest of the
//! process: load a layout once, not per request.

use super::{
    FieldCodec, FieldLayout, KeyPrefix, Layout, Order, TimeCrate, ValueKind, FORMAT_VERSION,
};
use crate::salt::{
    BucketFormat, BucketGroups, GroupRule, HashPrefixPlan, PrefixHash, SaltHash, SaltPlan,
};
use serde::Deserialize;
use std::fmt;

/// The most bytes of layout JSON [`Layout::from_json`] reads: a derived
/// layout of a hundred fields is under 64 KiB.
pub const MAX_LAYOUT_JSON_LEN: usize = 1 << 20;

/// Why layout JSON could not be used.
#[derive(Debug)]
pub enum LayoutJsonError {
    /// The text is longer than [`MAX_LAYOUT_JSON_LEN`].
    TooLong(usize),
    /// The layout was written in a format version this crate does not
    /// read: newer (upgrade rowkey) or older (export it again).
    Version(u32),
    /// The text is not the JSON of a rowkey layout.
    Json(serde_json::Error),
    /// The JSON is a layout, but one no derive could have written.
    Invalid(String),
}

impl fmt::Display for LayoutJsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutJsonError::TooLong(n) => write!(
                f,
                "{n} bytes is more than a layout takes (at most {MAX_LAYOUT_JSON_LEN})"
            ),
            LayoutJsonError::Version(v) if *v > FORMAT_VERSION => write!(
                f,
                "it is layout format {v}, newer than this rowkey reads ({FORMAT_VERSION}): \
                 upgrade rowkey"
            ),
            LayoutJsonError::Version(v) => write!(
                f,
                "it is layout format {v}, older than this rowkey reads ({FORMAT_VERSION}): \
                 export it again with serde_json::to_string(&Key::layout())"
            ),
            LayoutJsonError::Json(e) => write!(
                f,
                "it is not the JSON of a rowkey layout (serde_json::to_string(&Key::layout())): {e}"
            ),
            LayoutJsonError::Invalid(why) => write!(f, "it is not a layout rowkey writes: {why}"),
        }
    }
}

/// No `source()`: `Display` already includes the JSON error.
impl std::error::Error for LayoutJsonError {}

/// Only the version, read first: a newer layout may have fields this
/// crate would refuse as unknown, and the version says why.
#[derive(Deserialize)]
struct VersionJson {
    format_version: Option<u32>,
}

impl Layout {
    /// Reads a layout from the JSON `serde_json::to_string(&Key::layout())`
    /// writes, checking its format version and that a derive could have
    /// written it. Its names are leaked (`&'static str`, as a derived
    /// layout's are), so it lives for the rest of the process: load a
    /// layout once, not per request.
    ///
    /// ```
    /// # #[derive(rowkey::RowKey)] struct Op { uid: u64, #[desc_ts] at: i64 }
    /// use rowkey::{Layout, RowKey};
    /// let json = serde_json::to_string(Op::layout()).unwrap();
    /// assert_eq!(Layout::from_json(&json).unwrap(), Op::layout());
    /// let newer = json.replace("\"format_version\":2", "\"format_version\":3");
    /// assert!(Layout::from_json(&newer).unwrap_err().to_string().contains("upgrade rowkey"));
    /// ```
    pub fn from_json(json: &str) -> Result<&'static Layout, LayoutJsonError> {
        if json.len() > MAX_LAYOUT_JSON_LEN {
            return Err(LayoutJsonError::TooLong(json.len()));
        }
        let version: VersionJson = serde_json::from_str(json).map_err(LayoutJsonError::Json)?;
        match version.format_version {
            Some(FORMAT_VERSION) => {}
            Some(v) => return Err(LayoutJsonError::Version(v)),
            None => return Err(LayoutJsonError::Version(1)),
        }
        let owned: LayoutJson = serde_json::from_str(json).map_err(LayoutJsonError::Json)?;
        let layout = owned.into_static();
        super::validate::validate(layout).map_err(LayoutJsonError::Invalid)?;
        Ok(layout)
    }
}

impl Layout {
    /// The layout as the JSON [`from_json`](Self::from_json) reads:
    /// `serde_json::to_string_pretty`, two-space indented, no trailing
    /// newline.
    ///
    /// ```
    /// # #[derive(rowkey::RowKey)] struct Op { uid: u64 }
    /// use rowkey::{Layout, RowKey};
    /// let json = Op::layout().to_json();
    /// assert!(json.starts_with("{\n  \"format_version\": 2,"));
    /// assert_eq!(Layout::from_json(&json).unwrap(), Op::layout());
    /// ```
    pub fn to_json(&self) -> String {
        // A layout is plain data: serialising it cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn leak_slice<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LayoutJson {
    format_version: u32,
    name: String,
    separator: Option<char>,
    max_len: usize,
    fixed_len: Option<usize>,
    prefix: Option<PrefixJson>,
    fields: Vec<FieldJson>,
}

#[derive(Deserialize)]
enum PrefixJson {
    Salt(SaltJson),
    HashPrefix(HashPrefixJson),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaltJson {
    buckets: u32,
    format: BucketFormat,
    separator: Option<u8>,
    hash: SaltHashJson,
    inputs: Vec<String>,
    groups: Option<GroupsJson>,
}

#[derive(Deserialize)]
enum SaltHashJson {
    Default,
    Java,
    Phoenix,
    Md5,
    Custom(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupsJson {
    field: String,
    groups: u32,
    per_group: u32,
    rule: GroupRuleJson,
}

#[derive(Deserialize)]
enum GroupRuleJson {
    Enum,
    Range { lo: i128, hi: i128 },
    Func(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HashPrefixJson {
    len: usize,
    binary: bool,
    hash: PrefixHash,
    field: String,
    separator: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldJson {
    name: String,
    rust_type: String,
    value: ValueKindJson,
    codec: FieldCodec,
    offset: Option<usize>,
    max_len: usize,
    fixed_len: Option<usize>,
    order: Order,
    optional: bool,
    desc: bool,
}

impl LayoutJson {
    fn into_static(self) -> &'static Layout {
        let fields = self
            .fields
            .into_iter()
            .map(|f| FieldLayout {
                name: leak(f.name),
                rust_type: leak(f.rust_type),
                value: f.value.into_static(),
                codec: f.codec,
                offset: f.offset,
                max_len: f.max_len,
                fixed_len: f.fixed_len,
                order: f.order,
                optional: f.optional,
                desc: f.desc,
            })
            .collect();
        let prefix = self.prefix.map(|p| match p {
            PrefixJson::Salt(s) => KeyPrefix::Salt(SaltPlan {
                buckets: s.buckets,
                format: s.format,
                separator: s.separator,
                hash: match s.hash {
                    SaltHashJson::Default => SaltHash::Default,
                    SaltHashJson::Java => SaltHash::Java,
                    SaltHashJson::Phoenix => SaltHash::Phoenix,
                    SaltHashJson::Md5 => SaltHash::Md5,
                    SaltHashJson::Custom(f) => SaltHash::Custom(leak(f)),
                },
                inputs: leak_slice(s.inputs.into_iter().map(leak).collect()),
                groups: s.groups.map(|g| BucketGroups {
                    field: leak(g.field),
                    groups: g.groups,
                    per_group: g.per_group,
                    rule: match g.rule {
                        GroupRuleJson::Enum => GroupRule::Enum,
                        GroupRuleJson::Range { lo, hi } => GroupRule::Range { lo, hi },
                        GroupRuleJson::Func(f) => GroupRule::Func(leak(f)),
                    },
                }),
            }),
            PrefixJson::HashPrefix(h) => KeyPrefix::HashPrefix(HashPrefixPlan {
                len: h.len,
                binary: h.binary,
                hash: h.hash,
                field: leak(h.field),
                separator: h.separator,
            }),
        });
        Box::leak(Box::new(Layout {
            format_version: self.format_version,
            name: leak(self.name),
            separator: self.separator,
            max_len: self.max_len,
            fixed_len: self.fixed_len,
            prefix,
            fields: leak_slice(fields),
        }))
    }
}

/// [`ValueKind`] with owned parts.
#[derive(Deserialize)]
enum ValueKindJson {
    Int {
        bytes: u8,
        signed: bool,
    },
    Float {
        bytes: u8,
    },
    Bool,
    Char,
    Unit,
    ByteArray(usize),
    Text,
    Bytes,
    Uuid,
    Date(TimeCrate),
    DateTime(TimeCrate),
    Instant(TimeCrate),
    Decimal,
    Option(Box<ValueKindJson>),
    Enum {
        name: String,
        variants: Vec<String>,
    },
    Newtype {
        name: String,
        inner: Box<ValueKindJson>,
    },
    Bits {
        name: String,
        fields: Vec<BitsFieldJson>,
    },
    Opaque,
}

/// [`BitsField`](crate::codec::BitsField) with an owned name.
#[derive(Deserialize)]
struct BitsFieldJson {
    name: String,
    bits: u8,
    boolean: bool,
}

impl ValueKindJson {
    fn into_static(self) -> ValueKind {
        match self {
            ValueKindJson::Int { bytes, signed } => ValueKind::Int { bytes, signed },
            ValueKindJson::Float { bytes } => ValueKind::Float { bytes },
            ValueKindJson::Bool => ValueKind::Bool,
            ValueKindJson::Char => ValueKind::Char,
            ValueKindJson::Unit => ValueKind::Unit,
            ValueKindJson::ByteArray(n) => ValueKind::ByteArray(n),
            ValueKindJson::Text => ValueKind::Text,
            ValueKindJson::Bytes => ValueKind::Bytes,
            ValueKindJson::Uuid => ValueKind::Uuid,
            ValueKindJson::Date(c) => ValueKind::Date(c),
            ValueKindJson::DateTime(c) => ValueKind::DateTime(c),
            ValueKindJson::Instant(c) => ValueKind::Instant(c),
            ValueKindJson::Decimal => ValueKind::Decimal,
            ValueKindJson::Option(inner) => {
                ValueKind::Option(Box::leak(Box::new(inner.into_static())))
            }
            ValueKindJson::Enum { name, variants } => ValueKind::Enum {
                name: leak(name),
                variants: leak_slice(variants.into_iter().map(leak).collect()),
            },
            ValueKindJson::Newtype { name, inner } => ValueKind::Newtype {
                name: leak(name),
                inner: Box::leak(Box::new(inner.into_static())),
            },
            ValueKindJson::Bits { name, fields } => ValueKind::Bits {
                name: leak(name),
                fields: leak_slice(
                    fields
                        .into_iter()
                        .map(|f| crate::codec::BitsField {
                            name: leak(f.name),
                            bits: f.bits,
                            boolean: f.boolean,
                        })
                        .collect(),
                ),
            },
            ValueKindJson::Opaque => ValueKind::Opaque,
        }
    }
}
