//! A [`Layout`] read back from the JSON that `Key::layout()` serialises to
//! (rowkey's `serde` feature). The layout's strings are `&'static` in
//! rowkey-core, so the loaded names are leaked: a command loads one layout
//! and runs once.

use rowkey_core::layout::{FieldCodec, FieldLayout, KeyPrefix, Layout, Order};
use rowkey_core::salt::{
    BucketFormat, BucketGroups, GroupRule, HashPrefixPlan, PrefixHash, SaltHash, SaltPlan,
    MAX_BUCKETS,
};
use serde::Deserialize;
use std::fmt;
use std::path::Path;

/// Why a layout file could not be used.
#[derive(Debug)]
pub enum LayoutFileError {
    /// The file could not be read.
    Io(std::io::Error),
    /// The text is not the JSON of a rowkey layout.
    Json(serde_json::Error),
    /// The JSON is a layout, but one no derive could have written.
    Invalid(String),
}

impl fmt::Display for LayoutFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutFileError::Io(e) => write!(f, "cannot read it: {e}"),
            LayoutFileError::Json(e) => write!(
                f,
                "it is not the JSON of a rowkey layout (serde_json::to_string(&Key::layout())): {e}"
            ),
            LayoutFileError::Invalid(why) => write!(f, "it is not a layout rowkey writes: {why}"),
        }
    }
}

impl std::error::Error for LayoutFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LayoutFileError::Io(e) => Some(e),
            LayoutFileError::Json(e) => Some(e),
            LayoutFileError::Invalid(_) => None,
        }
    }
}

/// Reads the layout in the JSON file at `path`.
pub fn load(path: &Path) -> Result<&'static Layout, LayoutFileError> {
    let text = std::fs::read_to_string(path).map_err(LayoutFileError::Io)?;
    parse(&text)
}

/// Reads a layout from its JSON text.
///
/// ```
/// # #[derive(rowkey::RowKey)] struct Op { uid: u64, #[desc_ts] at: i64 }
/// use rowkey::RowKey;
/// let json = serde_json::to_string(&Op::layout()).unwrap();
/// assert_eq!(rowkey_cli::layout_file::parse(&json).unwrap(), Op::layout());
/// ```
pub fn parse(json: &str) -> Result<&'static Layout, LayoutFileError> {
    let owned: LayoutJson = serde_json::from_str(json).map_err(LayoutFileError::Json)?;
    let layout = owned.into_static();
    validate(layout).map_err(LayoutFileError::Invalid)?;
    Ok(layout)
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
            name: leak(self.name),
            separator: self.separator,
            max_len: self.max_len,
            fixed_len: self.fixed_len,
            prefix,
            fields: leak_slice(fields),
        }))
    }
}

/// What every derived layout satisfies; a file that breaks it was edited
/// by hand or is not a layout, and decoding with it would mislead.
fn validate(l: &Layout) -> Result<(), String> {
    if l.fields.is_empty() {
        return Err("it has no fields".into());
    }
    // Every derived layout fits HBase's limit (the derive asserts it).
    let too_long = |n: usize| n > rowkey_core::HBASE_MAX_KEY_LEN;
    if too_long(l.max_len) || l.fields.iter().any(|f| too_long(f.max_len)) {
        return Err(format!(
            "it allows keys over HBase's {}-byte limit",
            rowkey_core::HBASE_MAX_KEY_LEN
        ));
    }
    if let Some(sep) = l.separator {
        if !sep.is_ascii() {
            return Err(format!("the separator {sep:?} is not one ASCII byte"));
        }
    }
    let has = |name: &str| l.fields.iter().any(|f| f.name == name);
    for (i, f) in l.fields.iter().enumerate() {
        if l.fields[..i].iter().any(|g| g.name == f.name) {
            return Err(format!("field `{}` appears twice", f.name));
        }
        if let FieldCodec::Bytes {
            framing: rowkey_core::codec::Framing::Raw,
            ..
        } = f.codec
        {
            if i + 1 != l.fields.len() {
                return Err(format!(
                    "field `{}` is raw (runs to the key's end) but is not the last field",
                    f.name
                ));
            }
        }
    }
    match &l.prefix {
        Some(KeyPrefix::Salt(s)) => {
            if s.buckets == 0 || s.buckets > MAX_BUCKETS {
                return Err(format!("salt buckets = {} outside 1..=65536", s.buckets));
            }
            for i in s.inputs {
                if !has(i) {
                    return Err(format!("the salt hashes field `{i}`, which is not a field"));
                }
            }
            if let Some(g) = &s.groups {
                if !has(g.field) {
                    return Err(format!(
                        "the salt groups by `{}`, which is not a field",
                        g.field
                    ));
                }
                if u64::from(g.groups) * u64::from(g.per_group) != u64::from(s.buckets) {
                    return Err(format!(
                        "{} groups of {} buckets are not the {} buckets",
                        g.groups, g.per_group, s.buckets
                    ));
                }
            }
        }
        Some(KeyPrefix::HashPrefix(h)) => {
            if !has(h.field) {
                return Err(format!(
                    "the hash prefix hashes `{}`, which is not a field",
                    h.field
                ));
            }
            let max = if h.binary {
                h.hash.digest_len()
            } else {
                2 * h.hash.digest_len()
            };
            if h.len == 0 || h.len > max {
                return Err(format!("a hash prefix of {} outside 1..={max}", h.len));
            }
        }
        None => {}
    }
    Ok(())
}
