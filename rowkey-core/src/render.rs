//! Quoting keys for the command lines people paste them into: the HBase
//! shell (JRuby double-quoted strings, `toStringBinary` escapes) and a
//! POSIX shell running `cbt` (`$'..'` with `\xNN`).

use crate::KeyDisplay;

/// `"<toStringBinary>"` with `"` and `#` escaped for Ruby, so the HBase
/// shell reads the exact bytes back.
pub(crate) fn hbase_string(key: &[u8]) -> String {
    let shown = KeyDisplay(key).to_string();
    format!("\"{}\"", shown.replace('"', "\\\"").replace('#', "\\#"))
}

/// The bytes inside a bash `$'..'` string.
pub(crate) fn ansi_c_body(key: &[u8], out: &mut String) {
    for &b in key {
        match b {
            b'\'' | b'\\' => {
                out.push('\\');
                out.push(b as char);
            }
            b' '..=b'~' => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02X}")),
        }
    }
}

/// `$'name=<bytes>'` for one `cbt` argument.
pub(crate) fn cbt_arg(name: &str, key: &[u8]) -> String {
    let mut s = format!("$'{name}=");
    ansi_c_body(key, &mut s);
    s.push('\'');
    s
}
