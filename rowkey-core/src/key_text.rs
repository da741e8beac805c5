//! Keys and bytes as people paste them: HBase's `Bytes.toStringBinary`
//! form (what the HBase shell prints: `\x7F\xFF...`, the form
//! [`KeyDisplay`] writes) and plain hex.

use crate::KeyDisplay;
use std::fmt;

/// Text that is not a key in the form asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyTextError {
    /// Character offset in the text.
    pub at: usize,
    /// Why.
    pub reason: &'static str,
}

impl fmt::Display for KeyTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: {}", self.at, self.reason)
    }
}

impl std::error::Error for KeyTextError {}

/// Upper-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    use core::fmt::Write;
    let mut s = String::with_capacity(2 * bytes.len());
    for b in bytes {
        let _ = write!(s, "{b:02X}");
    }
    s
}

/// The bytes of a `toStringBinary` string: `\xNN` (either case) is a byte,
/// any other character its UTF-8 bytes (a `"` too: paste the key without
/// the quotes the HBase shell puts around it). A `\` not followed by
/// `x` and two hex digits is an error: `toStringBinary` writes `\` itself
/// as `\x5C`.
///
/// ```
/// use rowkey::key_text::parse_binary;
/// assert_eq!(parse_binary(r"2021\x01\xff").unwrap(), b"2021\x01\xFF");
/// assert!(parse_binary(r"a\q").is_err());
/// ```
pub fn parse_binary(text: &str) -> Result<Vec<u8>, KeyTextError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            let digits = bytes.get(i + 2..i + 4);
            match (bytes.get(i + 1), digits) {
                (Some(b'x' | b'X'), Some(d)) if d.iter().all(u8::is_ascii_hexdigit) => {
                    out.push(hex_digit(d[0]) << 4 | hex_digit(d[1]));
                    i += 4;
                }
                _ => {
                    return Err(KeyTextError {
                        at: text[..i].chars().count(),
                        reason:
                            "a backslash starts \\xNN (two hex digits); a backslash itself is \\x5C",
                    })
                }
            }
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Ok(out)
}

/// The bytes of hex text: pairs of hex digits, with optional `0x` and
/// spaces, `:` or `-` between bytes.
///
/// ```
/// use rowkey::key_text::parse_hex;
/// assert_eq!(parse_hex("0x7fff 01").unwrap(), [0x7F, 0xFF, 0x01]);
/// assert!(parse_hex("7ff").is_err());
/// ```
pub fn parse_hex(text: &str) -> Result<Vec<u8>, KeyTextError> {
    let text = text.trim();
    let body = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    let skipped = text.len() - body.len();
    let mut out = Vec::new();
    let mut high: Option<(usize, u8)> = None;
    for (i, c) in body.char_indices() {
        if matches!(c, ' ' | ':' | '-' | '_') && high.is_none() {
            continue;
        }
        if !c.is_ascii_hexdigit() {
            return Err(KeyTextError {
                at: skipped + body[..i].chars().count(),
                reason: "not a hex digit",
            });
        }
        let d = hex_digit(c as u8);
        match high.take() {
            None => high = Some((i, d)),
            Some((_, h)) => out.push(h << 4 | d),
        }
    }
    match high {
        Some((i, _)) => Err(KeyTextError {
            at: skipped + i,
            reason: "an odd number of hex digits: every byte is two",
        }),
        None => Ok(out),
    }
}

fn hex_digit(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        _ => c - b'A' + 10,
    }
}

/// `'text'` for the HBase shell (JRuby): only `\\` and `\'` are escapes
/// in single quotes, so any name stays one string. A name holding a
/// control character (a CR or LF would end the shell's line, and the
/// rest would be read as another command) is written double-quoted
/// instead, as [`hbase_string`] writes keys: each control character's
/// bytes as `\xNN`, and `"`, `\\` and `#` escaped, so it stays one string
/// on one line.
///
/// ```
/// use rowkey::key_text::ruby_single_quoted;
/// assert_eq!(ruby_single_quoted("t'x"), r"'t\'x'");
/// assert_eq!(ruby_single_quoted("t\r\nx#{1}"), r#""t\x0D\x0Ax\#{1}""#);
/// ```
pub fn ruby_single_quoted(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"));
    }
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '\\' | '"' | '#' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => {
                let mut utf8 = [0; 4];
                for b in c.encode_utf8(&mut utf8).bytes() {
                    out.push_str(&format!("\\x{b:02X}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The key as an HBase shell (JRuby) double-quoted string: the
/// `toStringBinary` form with `"` and `#` escaped.
///
/// ```
/// assert_eq!(rowkey::key_text::hbase_string(b"a\"#\x00"), r#""a\"\#\x00""#);
/// ```
pub fn hbase_string(key: &[u8]) -> String {
    let shown = KeyDisplay(key).to_string();
    format!("\"{}\"", shown.replace('"', "\\\"").replace('#', "\\#"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn to_string_binary_round_trips(key in proptest::collection::vec(any::<u8>(), 0..40)) {
            let shown = KeyDisplay(&key).to_string();
            prop_assert_eq!(parse_binary(&shown).unwrap(), key.clone());
            prop_assert_eq!(parse_hex(&hex(&key)).unwrap(), key);
        }

        #[test]
        fn no_panic_on_any_text(s in "\\PC{0,30}") {
            let _ = parse_binary(&s);
            let _ = parse_hex(&s);
        }
    }
}
