//! The subcommands: each loads the layout, does one thing and prints it;
//! an error is a message for stderr.

mod hotspot;

pub use hotspot::{hotspot, HotspotArgs};

use rowkey_cli::decode::{self, DecodedKey, PrefixReport};
use rowkey_cli::keytext;
use rowkey_cli::layout_file;
use rowkey_cli::{encode::encode as encode_key, parse};
use rowkey_core::layout::{KeyPrefix, Layout};
use rowkey_core::split::SplitKeys;
use rowkey_core::{DecodeError, KeyDisplay};
use std::path::Path;

pub type CmdResult = Result<(), String>;

pub fn load(path: &Path) -> Result<&'static Layout, String> {
    layout_file::load(path).map_err(|e| format!("layout {}: {e}", path.display()))
}

pub fn explain(path: &Path) -> CmdResult {
    print!("{}", load(path)?.explain());
    Ok(())
}

pub fn decode(path: &Path, hex: bool, keys: &[String]) -> CmdResult {
    let layout = load(path)?;
    let mut failed = 0;
    for (i, text) in keys.iter().enumerate() {
        let key = if hex {
            keytext::parse_hex(text)
        } else {
            keytext::parse_binary(text)
        }
        .map_err(|e| {
            let form = if hex { "hex" } else { "toStringBinary (\\xNN)" };
            format!("key `{text}` is not {form}: {e}")
        })?;
        if i > 0 {
            println!();
        }
        match decode::decode(layout, &key) {
            Ok(d) => print_decoded(layout, &key, &d),
            Err(e) => {
                failed += 1;
                eprintln!("{}", describe_decode_error(&key, &e));
            }
        }
    }
    match failed {
        0 => Ok(()),
        n => Err(format!("{n} of {} keys did not decode", keys.len())),
    }
}

/// The error, the key and a caret under the byte at fault.
fn describe_decode_error(key: &[u8], e: &DecodeError) -> String {
    let shown = KeyDisplay(key).to_string();
    let upto = KeyDisplay(&key[..e.offset().min(key.len())])
        .to_string()
        .len();
    format!("{e}\n  key: {shown}\n       {}^", " ".repeat(upto))
}

fn print_decoded(layout: &Layout, key: &[u8], d: &DecodedKey) {
    println!("{} ({} bytes): {}", layout.name, key.len(), KeyDisplay(key));
    match &d.prefix {
        Some(PrefixReport::Bucket { bucket, check }) => {
            let width = match &layout.prefix {
                Some(KeyPrefix::Salt(s)) => s.prefix_len(),
                _ => 0,
            };
            println!(
                "  salt bucket {bucket} ({}): {check}",
                KeyDisplay(&key[..width.min(key.len())])
            );
        }
        Some(PrefixReport::HashPrefix { stored }) => {
            println!(
                "  hash prefix {}: verified against the field",
                KeyDisplay(stored)
            );
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
    let value_w = rows.iter().map(|r| r.1.len()).max().unwrap_or(5).max(5);
    println!(
        "  {:<name_w$}  {:<span_w$}  {:<value_w$}  stored",
        "field", "bytes", "value"
    );
    for (f, (span, value, stored)) in d.fields.iter().zip(rows) {
        println!(
            "  {:<name_w$}  {span:<span_w$}  {value:<value_w$}  {stored}",
            f.name
        );
    }
}

pub fn encode(path: &Path, bucket: Option<u32>, table: &str, values: &[String]) -> CmdResult {
    let layout = load(path)?;
    let values = parse::assignments(layout, values)?;
    let key = encode_key(layout, &values, bucket).map_err(|e| e.to_string())?;
    println!("toStringBinary: {}", KeyDisplay(&key));
    println!("hex:            {}", keytext::hex(&key));
    println!(
        "hbase shell:    get '{table}', {}",
        keytext::hbase_string(&key)
    );
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
        println!("{}", splits.hbase_shell(table, cf));
    }
    if let Some([table, cf]) = cbt.as_deref() {
        println!("{}", splits.cbt(table, cf).map_err(|e| e.to_string())?);
    }
    Ok(())
}
