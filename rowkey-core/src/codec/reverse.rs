//! `#[reverse]`: values stored back to front, so that sequential ids and
//! phone numbers spread over regions (`13812345678` -> `87654321831`) and
//! host names group by domain (`www.iteblog.com` -> `com.iteblog.www`).
//! Every reversal here is its own inverse, so decoding applies it again.
//! Reversed fields keep no order.

/// What `#[reverse]` reverses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Reverse {
    /// Nothing.
    No,
    /// Characters of text (`www.iteblog.com` -> `moc.golbeti.www`), bytes
    /// of binary values, digits of `#[text]` integers.
    Chars,
    /// Segments between a separator byte, each kept as is
    /// (`www.iteblog.com` -> `com.iteblog.www` for `b'.'`).
    Segments(u8),
}

/// Reverses `buf` in place as `how` says; `text` keeps UTF-8 characters
/// whole. Never panics, whatever the bytes.
///
/// ```
/// use rowkey::codec::reverse::{reverse_in_place, Reverse};
/// let mut host = *b"www.iteblog.com";
/// reverse_in_place(&mut host, Reverse::Segments(b'.'), true);
/// assert_eq!(&host, b"com.iteblog.www");
/// let mut word = String::from("añb").into_bytes();
/// reverse_in_place(&mut word, Reverse::Chars, true);
/// assert_eq!(word, "bña".as_bytes());
/// ```
pub fn reverse_in_place(buf: &mut [u8], how: Reverse, text: bool) {
    match how {
        Reverse::No => {}
        Reverse::Chars => {
            buf.reverse();
            if text {
                restore_utf8_chars(buf);
            }
        }
        Reverse::Segments(sep) => {
            buf.reverse();
            for segment in buf.split_mut(|&b| b == sep) {
                segment.reverse();
            }
        }
    }
}

/// After a byte reversal every multi-byte character stands as its
/// continuation bytes followed by its lead byte; put each back in order.
fn restore_utf8_chars(buf: &mut [u8]) {
    let is_continuation = |b: u8| b & 0xC0 == 0x80;
    let mut i = 0;
    while i < buf.len() {
        let mut j = i;
        while j < buf.len() && is_continuation(buf[j]) {
            j += 1;
        }
        if j == i {
            i += 1;
        } else if j < buf.len() {
            buf[i..=j].reverse();
            i = j + 1;
        } else {
            // Continuation bytes with no lead: not UTF-8; left for the
            // UTF-8 check to reject.
            i = j;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rev(s: &str, how: Reverse) -> String {
        let mut b = s.as_bytes().to_vec();
        reverse_in_place(&mut b, how, true);
        String::from_utf8(b).unwrap()
    }

    #[test]
    fn seed_examples() {
        assert_eq!(rev("www.iteblog.com", Reverse::Chars), "moc.golbeti.www");
        assert_eq!(
            rev("www.iteblog.com", Reverse::Segments(b'.')),
            "com.iteblog.www"
        );
        assert_eq!(rev("13812345678", Reverse::Chars), "87654321831");
        assert_eq!(rev("a..b.", Reverse::Segments(b'.')), ".b..a");
        assert_eq!(rev("", Reverse::Chars), "");
    }

    proptest! {
        #[test]
        fn text_reversal_is_an_involution(s in "\\PC{0,20}", seg: bool) {
            let how = if seg { Reverse::Segments(b'.') } else { Reverse::Chars };
            let once = rev(&s, how);
            prop_assert_eq!(rev(&once, how), s.clone());
            if !seg {
                prop_assert_eq!(once, s.chars().rev().collect::<String>());
            }
        }

        #[test]
        fn bytes_reversal_is_an_involution(b in proptest::collection::vec(any::<u8>(), 0..20)) {
            let mut c = b.clone();
            reverse_in_place(&mut c, Reverse::Chars, false);
            reverse_in_place(&mut c, Reverse::Chars, false);
            prop_assert_eq!(c, b.clone());
            // Text mode on arbitrary bytes must not panic.
            let mut d = b;
            reverse_in_place(&mut d, Reverse::Chars, true);
        }
    }
}
