//! [`TailRange`]: the range a fuzzy key's rows must also hold after its
//! pattern, for a range on a field that follows a field left free
//! (`Trip::scan().city.eq(3).driver.any().started.range(..)`). The scan
//! reads the free field's whole extent; the rows whose bytes after the
//! pattern lie in `[lo, hi)` are kept. The bytes are the encoded bounds a
//! range on that field alone would have used, so the order is the stored
//! order (a `#[desc]` field's bounds are already swapped).

use crate::buf::KeyBuf;
use core::fmt::Write;

/// The bytes after a fuzzy pattern lie in `[lo, hi)` (`hi` `None`: no
/// upper bound). Held on the stack in `N` bytes per bound.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct TailRange<const N: usize> {
    pub(crate) lo: KeyBuf<N>,
    pub(crate) hi: Option<KeyBuf<N>>,
    /// The field the range is on, when the typed builder named it.
    pub(crate) field: &'static str,
}

impl<const N: usize> TailRange<N> {
    pub(crate) fn lo(&self) -> &[u8] {
        self.lo.as_bytes()
    }

    pub(crate) fn hi(&self) -> Option<&[u8]> {
        self.hi.as_ref().map(KeyBuf::as_bytes)
    }
}

/// Whether `rest` (the key's bytes after the pattern) is in `[lo, hi)`.
pub(crate) fn tail_matches(lo: &[u8], hi: Option<&[u8]>, rest: &[u8]) -> bool {
    rest >= lo && hi.is_none_or(|hi| rest < hi)
}

/// An RE2 expression (one byte per character, `(?s)`, matched to the end
/// of the key) for the byte strings in `[lo, hi)`. Where `lo` and `hi`
/// first differ, at bytes `a < b` after a common prefix `p`: `p`, then `a`
/// followed by a string `>=` the rest of `lo`, or a byte strictly between
/// `a` and `b` followed by anything, or `b` followed by a string `<` the
/// rest of `hi`. A string `>= lo` and one `< hi` recurse the same way, one
/// byte at a time, so the expression grows with the bounds' length only.
pub(crate) fn interval_regex(lo: &[u8], hi: Option<&[u8]>) -> String {
    let mut re = String::new();
    let Some(hi) = hi else {
        at_least(&mut re, lo);
        return re;
    };
    if hi <= lo {
        // Nothing: a byte no key has after its end.
        re.push_str("[^\\x00-\\xFF]");
        return re;
    }
    let common = lo.iter().zip(hi).take_while(|(a, b)| a == b).count();
    for &b in &lo[..common] {
        byte(&mut re, b);
    }
    let (lo, hi) = (&lo[common..], &hi[common..]);
    let Some((&a, lo_rest)) = lo.split_first() else {
        // `lo` is a prefix of `hi`: any string below the rest of `hi`.
        below(&mut re, hi);
        return re;
    };
    // `hi > lo` and they differ here: `hi` has a byte `b > a`.
    let (&b, hi_rest) = hi.split_first().unwrap_or((&0, &[]));
    re.push_str("(?:");
    byte(&mut re, a);
    at_least(&mut re, lo_rest);
    if b > a + 1 {
        re.push('|');
        class(&mut re, a + 1, b - 1);
        re.push_str("\\C*");
    }
    if !hi_rest.is_empty() {
        re.push('|');
        byte(&mut re, b);
        below(&mut re, hi_rest);
    }
    re.push(')');
    re
}

/// Strings `>= lo`: a first byte above `lo`'s then anything, or the same
/// first byte then a string `>=` the rest.
fn at_least(re: &mut String, lo: &[u8]) {
    let Some((&c, rest)) = lo.split_first() else {
        re.push_str("\\C*");
        return;
    };
    re.push_str("(?:");
    if c < 0xFF {
        class(re, c + 1, 0xFF);
        re.push_str("\\C*|");
    }
    byte(re, c);
    at_least(re, rest);
    re.push(')');
}

/// Strings `< hi` (`hi` not empty): the end of the key, a first byte below
/// `hi`'s then anything, or the same first byte then a string `<` the rest.
fn below(re: &mut String, hi: &[u8]) {
    let Some((&c, rest)) = hi.split_first() else {
        re.push_str("[^\\x00-\\xFF]");
        return;
    };
    re.push_str("(?:$");
    if c > 0 {
        re.push('|');
        class(re, 0, c - 1);
        re.push_str("\\C*");
    }
    if !rest.is_empty() {
        re.push('|');
        byte(re, c);
        below(re, rest);
    }
    re.push(')');
}

fn byte(re: &mut String, b: u8) {
    let _ = write!(re, "\\x{b:02X}");
}

fn class(re: &mut String, lo: u8, hi: u8) {
    if lo == hi {
        byte(re, lo);
    } else {
        let _ = write!(re, "[\\x{lo:02X}-\\x{hi:02X}]");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A byte-level matcher for the expressions written here (literal
    /// bytes, classes, `\C*`, `$`, groups of alternatives), enough to check
    /// them against [`tail_matches`] without a regex engine.
    mod tiny {
        #[derive(Debug)]
        pub enum Node {
            Byte(u8, u8),
            AnyStar,
            End,
            Never,
            Alt(Vec<Vec<Node>>),
        }

        pub fn parse(re: &str) -> Vec<Node> {
            let b = re.as_bytes();
            let mut at = 0;
            let seq = seq(b, &mut at);
            assert_eq!(at, b.len(), "parsed all of {re}");
            seq
        }

        fn hex(b: &[u8], at: &mut usize) -> u8 {
            assert_eq!(&b[*at..*at + 2], b"\\x");
            let v = u8::from_str_radix(core::str::from_utf8(&b[*at + 2..*at + 4]).unwrap(), 16);
            *at += 4;
            v.unwrap()
        }

        fn seq(b: &[u8], at: &mut usize) -> Vec<Node> {
            let mut out = Vec::new();
            while *at < b.len() && b[*at] != b'|' && b[*at] != b')' {
                if b[*at..].starts_with(b"(?:") {
                    *at += 3;
                    let mut alts = vec![seq(b, at)];
                    while b[*at] == b'|' {
                        *at += 1;
                        alts.push(seq(b, at));
                    }
                    *at += 1; // ')'
                    out.push(Node::Alt(alts));
                } else if b[*at..].starts_with(b"\\C*") {
                    *at += 3;
                    out.push(Node::AnyStar);
                } else if b[*at] == b'$' {
                    *at += 1;
                    out.push(Node::End);
                } else if b[*at..].starts_with(b"[^\\x00-\\xFF]") {
                    *at += 12;
                    out.push(Node::Never);
                } else if b[*at] == b'[' {
                    *at += 1;
                    let lo = hex(b, at);
                    *at += 1; // '-'
                    let hi = hex(b, at);
                    *at += 1; // ']'
                    out.push(Node::Byte(lo, hi));
                } else {
                    let v = hex(b, at);
                    out.push(Node::Byte(v, v));
                }
            }
            out
        }

        /// Whether `seq` matches all of `s`.
        pub fn full(seq: &[Node], s: &[u8]) -> bool {
            full_refs(&seq.iter().collect::<Vec<_>>(), s)
        }

        fn full_refs(seq: &[&Node], s: &[u8]) -> bool {
            let Some((first, rest)) = seq.split_first() else {
                return s.is_empty();
            };
            match first {
                Node::Byte(lo, hi) => {
                    s.first().is_some_and(|c| lo <= c && c <= hi) && full_refs(rest, &s[1..])
                }
                Node::AnyStar => (0..=s.len()).any(|i| full_refs(rest, &s[i..])),
                Node::End => s.is_empty() && full_refs(rest, s),
                Node::Never => false,
                Node::Alt(alts) => alts.iter().any(|alt| {
                    let joined: Vec<&Node> = alt.iter().chain(rest.iter().copied()).collect();
                    full_refs(&joined, s)
                }),
            }
        }
    }

    fn bytes() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(
            prop_oneof![Just(0u8), Just(1), Just(0x7F), Just(0xFE), Just(0xFF)],
            0..4,
        )
    }

    proptest! {
        /// The expression selects exactly the strings in `[lo, hi)`.
        #[test]
        fn regex_is_the_interval(lo in bytes(), hi in proptest::option::of(bytes()), s in bytes()) {
            let re = interval_regex(&lo, hi.as_deref());
            let nodes = tiny::parse(&re);
            prop_assert_eq!(
                tiny::full(&nodes, &s),
                tail_matches(&lo, hi.as_deref(), &s),
                "{} on {:?}", re, s
            );
        }
    }

    #[test]
    fn writes_the_divergence() {
        assert_eq!(interval_regex(b"", None), r"\C*");
        assert_eq!(
            interval_regex(b"a1", Some(b"a3")),
            r"\x61(?:\x31\C*|\x32\C*)"
        );
    }
}
