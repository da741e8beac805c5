//! The subcommands: each loads the layout, does one thing through
//! rowkey-core's interpreter and prints it; an error is a message for
//! stderr and a non-zero exit.

mod diff;
mod hotspot;
#[cfg(feature = "hbase")]
mod phoenix;
#[cfg(any(feature = "bigtable", feature = "hbase"))]
mod read;
#[cfg(feature = "bigtable")]
mod rekey;

pub use diff::{diff, DiffArgs};
pub use hotspot::{hotspot, HotspotArgs};
#[cfg(feature = "hbase")]
pub use phoenix::phoenix;
#[cfg(any(feature = "bigtable", feature = "hbase"))]
pub use read::{get, scan, ReadArgs};
#[cfg(feature = "bigtable")]
pub use rekey::{rekey, RekeyArgs};

use crate::out::{out, outln};
use rowkey_cli::key_input::{self, KeyForm};
use rowkey_cli::layout_file::load;
use rowkey_core::key_text::{hbase_string, hex, ruby_single_quoted};
use rowkey_core::layout::dynamic::{DecodedKey, EncodeValuesError, PrefixReport};
use rowkey_core::layout::{KeyPrefix, Layout};
use rowkey_core::split::SplitKeys;
use rowkey_core::{DecodeError, KeyDisplay};
use std::path::Path;

pub type CmdResult = Result<(), String>;

pub fn explain(path: &Path) -> CmdResult {
    out!("{}", load(path)?.explain())?;
    Ok(())
}

/// Where `decode` reads its keys.
pub struct KeySource<'a> {
    pub form: KeyForm,
    pub args: &'a [String],
    pub file: Option<&'a Path>,
}

impl KeySource<'_> {
    fn keys(&self) -> Result<Vec<Vec<u8>>, String> {
        let mut keys = Vec::new();
        for text in self.args {
            if self.form == KeyForm::Cbt {
                return Err(
                    "--cbt reads what `cbt read` prints from --keys FILE or standard input, \
                     not from arguments"
                        .into(),
                );
            }
            keys.push(key_input::parse_key(self.form, text)?);
        }
        let file = match (self.file, self.args.is_empty()) {
            (Some(p), _) => p,
            (None, true) if self.form == KeyForm::Cbt => Path::new("-"),
            (None, true) => return Err("give keys as arguments or with --keys FILE".into()),
            (None, false) => return Ok(keys),
        };
        keys.extend(key_input::read_keys(file, self.form)?);
        // Keys asked for and none found is an error, as for hotspot: an
        // empty file or one of another form would otherwise decode
        // nothing and succeed.
        if keys.is_empty() {
            return Err(key_input::no_keys(file, self.form));
        }
        Ok(keys)
    }
}

pub fn decode(path: &Path, source: KeySource<'_>) -> CmdResult {
    let layout = load(path)?;
    let keys = source.keys()?;
    let mut failed = 0;
    for (i, key) in keys.iter().enumerate() {
        if i > 0 {
            outln!()?;
        }
        match layout.decode_key(key) {
            Ok(d) => print_decoded(layout, key, &d)?,
            Err(e) => {
                failed += 1;
                eprintln!("{}", describe_decode_error(key, &e));
            }
        }
    }
    match failed {
        0 => Ok(()),
        n => Err(format!("{n} of {} keys did not decode", keys.len())),
    }
}

/// The error, the key and a caret under the byte at fault.
pub fn describe_decode_error(key: &[u8], e: &DecodeError) -> String {
    let shown = KeyDisplay(key).to_string();
    let upto = KeyDisplay(&key[..e.offset().min(key.len())])
        .to_string()
        .len();
    format!("{e}\n  key: {shown}\n       {}^", " ".repeat(upto))
}

fn print_decoded(layout: &Layout, key: &[u8], d: &DecodedKey) -> CmdResult {
    outln!("{} ({} bytes): {}", layout.name, key.len(), KeyDisplay(key))?;
    match &d.prefix {
        Some(PrefixReport::Bucket {
            bucket,
            span,
            check,
        }) => {
            outln!(
                "  salt bucket {bucket} ({}): {check}",
                KeyDisplay(&key[span.clone()])
            )?;
        }
        Some(PrefixReport::HashPrefix { stored }) => {
            outln!(
                "  hash prefix {}: verified against the field",
                KeyDisplay(stored)
            )?;
        }
        None => {}
    }
    let name_w = d
        .fields
        .iter()
        .map(|f| f.name.len())
        .max()
        .unwrap_or(5)
        .max(5);
    let rows: Vec<(String, String, String)> = d
        .fields
        .iter()
        .map(|f| {
            (
                format!("{}..{}", f.span.start, f.span.end),
                f.value.to_string(),
                KeyDisplay(&key[f.span.clone()]).to_string(),
            )
        })
        .collect();
    let span_w = rows.iter().map(|r| r.0.len()).max().unwrap_or(5).max(5);
    let value_w = rows
        .iter()
        .map(|r| r.1.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    outln!(
        "  {:<name_w$}  {:<span_w$}  {:<value_w$}  stored",
        "field",
        "bytes",
        "value"
    )?;
    for (f, (span, value, stored)) in d.fields.iter().zip(rows) {
        outln!(
            "  {:<name_w$}  {span:<span_w$}  {value:<value_w$}  {stored}",
            f.name
        )?;
    }
    Ok(())
}

pub fn encode(path: &Path, bucket: Option<u32>, table: &str, values: &[String]) -> CmdResult {
    let layout = load(path)?;
    let values = layout.parse_assignments(values)?;
    let key = layout.encode_key(&values, bucket).map_err(|e| match e {
        EncodeValuesError::Bucket(why) if why.ends_with("give the bucket") => {
            format!("{why} with --bucket N")
        }
        e => e.to_string(),
    })?;
    outln!("toStringBinary: {}", KeyDisplay(&key))?;
    outln!("hex:            {}", hex(&key))?;
    outln!(
        "hbase shell:    get {}, {}",
        ruby_single_quoted(table),
        hbase_string(&key)
    )?;
    Ok(())
}

/// The layout's own split keys, or `regions` regions cut as its keys
/// start (hex or binary hash prefixes, or binary).
pub fn split_keys(layout: &Layout, regions: Option<u32>) -> Result<SplitKeys, String> {
    match (&layout.prefix, regions) {
        (Some(KeyPrefix::Salt(s)), None) => Ok(SplitKeys::new(s.split_keys())),
        (Some(KeyPrefix::Salt(s)), Some(_)) => Err(format!(
            "{} is salted into {} buckets and splits once per bucket: drop --regions",
            layout.name, s.buckets
        )),
        (Some(KeyPrefix::HashPrefix(h)), n) => {
            let n = n.unwrap_or(16);
            Ok(if h.binary {
                SplitKeys::uniform(n)
            } else {
                SplitKeys::hex_string(n)
            })
        }
        (None, Some(n)) => Ok(SplitKeys::uniform(n)),
        (None, None) => Err(format!(
            "{} has no salt or hash prefix, so no split keys of its own: give --regions N \
             (binary splits) or, for hotspot, --splits FILE",
            layout.name
        )),
    }
}

pub fn splits(
    path: &Path,
    hbase: Option<Vec<String>>,
    cbt: Option<Vec<String>>,
    regions: Option<u32>,
) -> CmdResult {
    let layout = load(path)?;
    let splits = split_keys(layout, regions)?;
    if let Some([table, cf]) = hbase.as_deref() {
        outln!("{}", splits.hbase_shell(table, cf))?;
    }
    if let Some([table, cf]) = cbt.as_deref() {
        outln!("{}", splits.cbt(table, cf).map_err(|e| e.to_string())?)?;
    }
    Ok(())
}
