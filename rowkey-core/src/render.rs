//! Quoting keys for the command lines people paste them into: the HBase
//! shell (JRuby double-quoted strings, `toStringBinary` escapes) and a
//! POSIX shell running `cbt` (`$'..'` with `\xNN`). A key a command line
//! cannot carry is an [`UnrenderableKey`] error, never a command that
//! means something else.

pub(crate) use crate::key_text::ruby_single_quoted;
use crate::KeyDisplay;
use core::fmt;

/// A key that a tool's command line cannot carry, so no command is
/// printed for it.
///
/// ```
/// use rowkey::scan::ScanRange;
/// let r = ScanRange::<8>::with_prefix(b"a\x00\x01").unwrap();
/// let e = r.cbt("t").unwrap_err();
/// assert_eq!(e.to_string(), "cannot write a cbt command for key a\\x00\\x01: it holds 0x00, \
///     which no command-line argument can carry (bash cuts $'..' strings there); \
///     use the Bigtable API (rowkey-bigtable) for this key");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UnrenderableKey {
    /// The tool: "cbt".
    pub tool: &'static str,
    /// The key, as `toStringBinary` shows it.
    pub key: String,
    /// Why the tool cannot take it.
    pub reason: &'static str,
}

impl fmt::Display for UnrenderableKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot write a {} command for key {}: {}; use the Bigtable API (rowkey-bigtable) \
             for this key",
            self.tool, self.key, self.reason
        )
    }
}

impl std::error::Error for UnrenderableKey {}

/// The bytes inside a bash `$'..'` string; a key with 0x00 cannot be one
/// (argv strings end at NUL, and bash cuts `$'..'` there).
pub(crate) fn ansi_c_body(key: &[u8], out: &mut String) -> Result<(), UnrenderableKey> {
    if key.contains(&0) {
        return Err(UnrenderableKey {
            tool: "cbt",
            key: KeyDisplay(key).to_string(),
            reason: "it holds 0x00, which no command-line argument can carry \
                     (bash cuts $'..' strings there)",
        });
    }
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
    Ok(())
}

/// A table or family name as one POSIX shell word, after `prefix`
/// (`families=`): bare when it holds only characters no shell treats
/// specially, else quoted as `$'..'`, so a name can never end the word and
/// run a second command. A name holding 0x00 cannot be an argument.
pub(crate) fn shell_word(prefix: &str, name: &str) -> Result<String, UnrenderableKey> {
    let plain =
        |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '=' | ',');
    let word = format!("{prefix}{name}");
    if !name.is_empty() && word.chars().all(plain) {
        return Ok(word);
    }
    if name.contains('\0') {
        return Err(UnrenderableKey {
            tool: "cbt",
            key: KeyDisplay(name.as_bytes()).to_string(),
            reason: "the name holds 0x00, which no command-line argument can carry",
        });
    }
    let mut s = String::from("$'");
    ansi_c_body(word.as_bytes(), &mut s)?;
    s.push('\'');
    Ok(s)
}

/// `$'name=<bytes>'` for one `cbt` argument.
pub(crate) fn cbt_arg(name: &str, key: &[u8]) -> Result<String, UnrenderableKey> {
    let mut s = format!("$'{name}=");
    ansi_c_body(key, &mut s)?;
    s.push('\'');
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key_text::hbase_string;
    use proptest::prelude::*;

    /// The bytes of a quoted literal that uses only the escapes the
    /// renderers write: `\xNN` and a backslash before one of `plain`;
    /// `None` for any other escape or for a byte in `bad` unescaped.
    fn unquote(body: &str, plain: &[u8], bad: impl Fn(&[u8]) -> bool) -> Option<Vec<u8>> {
        let b = body.as_bytes();
        let (mut out, mut i) = (Vec::new(), 0);
        while i < b.len() {
            if b[i] == b'\\' {
                match *b.get(i + 1)? {
                    b'x' => {
                        let hex = std::str::from_utf8(b.get(i + 2..i + 4)?).ok()?;
                        out.push(u8::from_str_radix(hex, 16).ok()?);
                        i += 4;
                    }
                    c if plain.contains(&c) => {
                        out.push(c);
                        i += 2;
                    }
                    _ => return None,
                }
            } else if bad(&b[i..]) {
                return None;
            } else {
                out.push(b[i]);
                i += 1;
            }
        }
        Some(out)
    }

    /// What JRuby makes of a double-quoted literal: `"` ends it, `#{`,
    /// `#$` and `#@` interpolate.
    fn ruby_double_quoted(lit: &str) -> Option<Vec<u8>> {
        let body = lit.strip_prefix('"')?.strip_suffix('"')?;
        unquote(body, b"\"#", |rest| {
            rest[0] == b'"' || (rest[0] == b'#' && matches!(rest.get(1), Some(b'{' | b'$' | b'@')))
        })
    }

    /// What bash makes of `$'..'`: `'` ends it, and a NUL ends the string.
    fn bash_ansi_c(lit: &str) -> Option<Vec<u8>> {
        let body = lit.strip_prefix("$'")?.strip_suffix('\'')?;
        let mut out = unquote(body, b"'\\", |rest| rest[0] == b'\'')?;
        if let Some(nul) = out.iter().position(|&c| c == 0) {
            out.truncate(nul);
        }
        Some(out)
    }

    proptest! {
        /// The HBase shell reads back exactly the key.
        #[test]
        fn hbase_strings_carry_every_key(key in proptest::collection::vec(any::<u8>(), 0..24)) {
            prop_assert_eq!(ruby_double_quoted(&hbase_string(&key)), Some(key));
        }

        /// bash gives `cbt` exactly the key, or no command is written.
        #[test]
        fn cbt_arguments_carry_the_key_or_refuse(
            key in proptest::collection::vec(prop_oneof![Just(0u8), Just(b'\''), Just(b'\\'), any::<u8>()], 0..24),
        ) {
            match cbt_arg("start", &key) {
                Ok(arg) => {
                    let inner = arg.replacen("start=", "", 1);
                    prop_assert_eq!(bash_ansi_c(&inner), Some(key));
                }
                Err(e) => prop_assert!(key.contains(&0), "{e}"),
            }
        }

        /// A name is one shell word that bash reads back exactly, or no
        /// command is written: `t;touch /tmp/x` can never run `touch`.
        #[test]
        fn names_are_one_shell_word(name in "[a-z;'\\\\ $`\"\n\\x00-\\x7f\u{e9}]{0,12}") {
            match shell_word("families=", &name) {
                Ok(word) if word.starts_with("$'") => {
                    let back = bash_ansi_c(&word).unwrap();
                    prop_assert_eq!(back, format!("families={name}").into_bytes());
                }
                Ok(word) => {
                    prop_assert_eq!(&word, &format!("families={name}"));
                    prop_assert!(word.chars().all(|c| c.is_ascii_alphanumeric() || "_-.:=,".contains(c)));
                }
                Err(e) => prop_assert!(name.contains('\0'), "{e}"),
            }
            // Ruby's single quotes hold any name on one line: only \\ and
            // \' escape. A name with a control character (a CR LF would
            // end the shell's line) is double-quoted, its bytes \xNN.
            let quoted = ruby_single_quoted(&name);
            prop_assert!(!quoted.chars().any(char::is_control), "{quoted:?}");
            let body = &quoted[1..quoted.len() - 1];
            if quoted.starts_with('"') {
                let back = unquote(body, b"\"#\\", |rest| {
                    rest[0] == b'"' || (rest[0] == b'#' && matches!(rest.get(1), Some(b'{' | b'$' | b'@')))
                });
                prop_assert_eq!(back, Some(name.clone().into_bytes()));
            } else {
                prop_assert_eq!(body.replace("\\\\", "\\").replace("\\'", "'"), name.clone());
                prop_assert!(!body.replace("\\\\", "").replace("\\'", "").contains('\''));
            }
        }
    }

    #[test]
    fn hostile_table_names_stay_names() {
        let splits = crate::split::SplitKeys::new(vec![b"a".to_vec()]);
        assert_eq!(
            splits.cbt("t;touch /tmp/x", "cf").unwrap(),
            "cbt createtable $'t;touch /tmp/x' families=cf $'splits=a'"
        );
        assert_eq!(
            splits.hbase_shell("t'x", "cf"),
            "create 't\\'x', 'cf', SPLITS => [\"a\"]"
        );
        assert!(splits.cbt("t", "a,b").is_err());
        let r = crate::scan::ScanRange::<4>::with_prefix(b"a").unwrap();
        assert_eq!(r.cbt("t x").unwrap(), "cbt read $'t x' $'start=a' $'end=b'");
        assert_eq!(
            r.hbase_shell("t'"),
            "scan 't\\'', {STARTROW => \"a\", STOPROW => \"b\"}"
        );
    }
}
