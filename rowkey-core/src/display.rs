//! [`KeyDisplay`]: keys printed the way HBase's `Bytes.toStringBinary`
//! prints them, so a logged key pastes into the HBase shell.

use core::fmt;

/// Shows bytes as HBase's `Bytes.toStringBinary` does: printable ASCII as
/// is, every other byte (and `\` itself) as `\xNN` with upper-case hex.
///
/// ```
/// use rowkey::KeyDisplay;
/// let key = b"2021-12\x01\x01zhangsan\xff";
/// assert_eq!(KeyDisplay(key).to_string(), r"2021-12\x01\x01zhangsan\xFF");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyDisplay<'a>(pub &'a [u8]);

impl fmt::Display for KeyDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        const HEX: &[u8; 16] = b"0123456789ABCDEF";
        for &b in self.0 {
            if (b' '..=b'~').contains(&b) && b != b'\\' {
                f.write_char(b as char)?;
            } else {
                f.write_str("\\x")?;
                f.write_char(HEX[(b >> 4) as usize] as char)?;
                f.write_char(HEX[(b & 0xF) as usize] as char)?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for KeyDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{self}\"")
    }
}

#[cfg(test)]
mod tests {
    use super::KeyDisplay;

    #[test]
    fn matches_to_string_binary() {
        assert_eq!(KeyDisplay(b"a\\b").to_string(), r"a\x5Cb");
        assert_eq!(KeyDisplay(b" ~\x7f\x00").to_string(), r" ~\x7F\x00");
        assert_eq!(format!("{:?}", KeyDisplay(b"0|")), "\"0|\"");
    }
}
