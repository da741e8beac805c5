//! Adversarial values: each type's boundaries and bytes that break
//! framings (0x00, 0x01, 0xFF, separators, fills, quotes, backslashes,
//! text that reads as something else), mixed with arbitrary values; and
//! the byte strings every key is checked against.

use proptest::prelude::*;
use proptest::sample::{select, Index};

/// An arbitrary value half the time, one of `special` the other half.
pub fn edges<T: Arbitrary + Clone + Debug + 'static>(special: Vec<T>) -> BoxedStrategy<T> {
    prop_oneof![any::<T>(), select(special)].boxed()
}

use std::fmt::Debug;

/// An integer type's boundaries.
pub trait Int: Arbitrary + Copy + Debug + TryFrom<i128> + TryFrom<u128> + 'static {}
impl<T: Arbitrary + Copy + Debug + TryFrom<i128> + TryFrom<u128> + 'static> Int for T {}

/// `T`'s boundaries (MIN, MAX, 0, ±1) and the decimal boundaries of
/// `digits` digits (`10^d - 1`, `10^d`): where `#[text(width)]` starts to
/// refuse.
pub fn int<T: Int>(digits: u32) -> BoxedStrategy<T> {
    let mut special: Vec<T> = Vec::new();
    let signed = [i128::MIN, i128::MIN + 1, -1, 0, 1, i128::MAX];
    let unsigned = [u128::MAX, u128::MAX - 1, u128::from(u64::MAX)];
    special.extend(signed.iter().filter_map(|&x| T::try_from(x).ok()));
    special.extend(unsigned.iter().filter_map(|&x| T::try_from(x).ok()));
    for d in [digits.saturating_sub(1), digits] {
        if let Some(p) = 10u128.checked_pow(d) {
            for x in [p - 1, p, p + 1] {
                special.extend(T::try_from(x).ok());
                special.extend(i128::try_from(x).ok().and_then(|x| T::try_from(-x).ok()));
            }
        }
    }
    // Each type's own MIN and MAX, from the wide ones by saturation.
    for bits in [8u32, 16, 32, 64, 127] {
        let max = (1u128 << bits) - 1;
        special.extend(T::try_from(max).ok());
        special.extend(T::try_from(max >> 1).ok());
        special.extend(T::try_from(-((max >> 1) as i128) - 1).ok());
    }
    edges(special)
}

pub fn f64s() -> BoxedStrategy<f64> {
    edges(vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        5e-324,
        f64::MAX,
        f64::MIN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ])
}

pub fn f32s() -> BoxedStrategy<f32> {
    edges(vec![
        0.0,
        -0.0,
        1.5,
        f32::MIN_POSITIVE,
        1e-45,
        f32::MAX,
        f32::MIN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ])
}

pub fn chars() -> BoxedStrategy<char> {
    edges(vec![
        '\0',
        '\u{1}',
        '\n',
        '"',
        '\\',
        '\u{7f}',
        '\u{ff}',
        '\u{d7ff}',
        '\u{e000}',
        '\u{10ffff}',
    ])
}

/// Characters that break framings and displays: NUL, the fills, U+00FF,
/// separators, a newline, quotes and backslashes, a combining accent, a
/// four-byte emoji.
const NASTY: &[char] = &[
    '\0', '\u{1}', '\u{ff}', '\u{7f}', '_', '|', '.', '-', '\n', '"', '\\', '\u{301}', '😀', '*',
];

/// Text of up to `max_chars + 1` characters (so some are over a bound):
/// mostly ASCII letters and digits, often the nasty characters; and the
/// texts that read as something else (`None`, `Some(..)`, a quote, `0x`).
pub fn text(max_chars: usize) -> BoxedStrategy<String> {
    let ch = prop_oneof![
        3 => proptest::char::range('a', 'c'),
        1 => proptest::char::range('0', '9'),
        2 => select(NASTY),
    ];
    let special = [
        "",
        "None",
        "Some(x)",
        "Some(None",
        "\"q\"",
        "0x12",
        "x",
        "\0",
        "\u{1}",
        "ab\0",
    ];
    let special: Vec<String> = special
        .iter()
        .map(|s| s.to_string())
        .filter(|s| s.chars().count() <= max_chars + 1)
        .collect();
    prop_oneof![
        4 => proptest::collection::vec(ch, 0..=max_chars + 1)
            .prop_map(|v| v.into_iter().collect::<String>()),
        1 => select(special),
    ]
    .boxed()
}

/// Bytes of up to `max + 1`: the framing bytes, hex-looking text and
/// anything.
pub fn bytes(max: usize) -> BoxedStrategy<Vec<u8>> {
    let b = prop_oneof![
        2 => select(vec![0x00u8, 0x01, 0xFF, 0xFE, b'_', b'|', b'.', b'*', b'\\', b'"']),
        2 => select(b"0x12ab".to_vec()),
        1 => any::<u8>(),
    ];
    let special: Vec<Vec<u8>> = [&b"0x12"[..], b"0x1", b"0xAB", b"None", b"\\x41", b""]
        .iter()
        .filter(|s| s.len() <= max + 1)
        .map(|s| s.to_vec())
        .collect();
    prop_oneof![
        4 => proptest::collection::vec(b, 0..=max + 1),
        1 => select(special),
    ]
    .boxed()
}

/// The middle struct's raw tail.
pub fn tail() -> BoxedStrategy<Vec<u8>> {
    proptest::collection::vec(select(vec![0u8, 1, 0xFF, b'a']), 0..=2).boxed()
}

/// What each key is checked against besides itself: edits of the key
/// (insert, delete or replace a byte at a place) and arbitrary bytes.
#[derive(Debug, Clone)]
pub struct Noise {
    pub edits: Vec<(u8, Index, u8)>,
    pub bytes: Vec<u8>,
}

pub fn noise() -> BoxedStrategy<Noise> {
    let byte = prop_oneof![
        select(vec![0u8, 1, 0xFE, 0xFF, b'_', b'|', b'0', b'9']),
        any::<u8>()
    ];
    let edits = proptest::collection::vec((0u8..3, any::<Index>(), byte.clone()), 1..4);
    let bytes = proptest::collection::vec(byte, 0..48);
    (proptest::collection::vec(edits, 1..4), bytes)
        .prop_map(|(sets, bytes)| Noise {
            edits: sets.into_iter().flatten().collect(),
            bytes,
        })
        .boxed()
}

impl Noise {
    /// The key after each prefix of the edits.
    pub fn mutations_of(&self, key: &[u8]) -> Vec<Vec<u8>> {
        let mut k = key.to_vec();
        let mut out = Vec::new();
        for &(op, at, b) in &self.edits {
            match op {
                0 => k.insert(at.index(k.len() + 1), b),
                1 if !k.is_empty() => {
                    k.remove(at.index(k.len()));
                }
                _ if !k.is_empty() => {
                    let i = at.index(k.len());
                    k[i] = b;
                }
                _ => k.push(b),
            }
            out.push(k.clone());
        }
        out
    }
}

/// Keys near `key`: every cut, one byte more (0x00, 0x01, 0xFF, `_`),
/// each byte set to 0x00, 0xFF and one more.
pub fn neighbours(key: &[u8]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = (0..key.len()).map(|n| key[..n].to_vec()).collect();
    for tail in [0x00, 0x01, 0xFF, b'_'] {
        out.push([key, &[tail]].concat());
    }
    for i in 0..key.len() {
        for b in [0x00, 0xFF, key[i].wrapping_add(1)] {
            let mut k = key.to_vec();
            k[i] = b;
            out.push(k);
        }
    }
    out
}
