//! `FuzzyKey::matches` against two matchers written here, independently
//! of it: HBase 2.x's `FuzzyRowFilter` rule on its `(row, mask)` pair, and
//! the Bigtable regex run by the `regex` crate over bytes. All three agree
//! on keys at least as long as the pattern; on shorter keys HBase says yes
//! where the bytes it sees agree, and the other two say no.

use proptest::prelude::*;
use regex::bytes::Regex;
use rowkey_core::scan::{FuzzyFilter, FuzzyKey};

/// HBase 2.x `FuzzyRowFilter.satisfies`, from its definition: the
/// constructor turns mask `0` (fixed) into `0xFF` and `1` (free) into `0`
/// (through `-1` and `2`, shifted right by 2), zeroes the row bytes where
/// the mask is free, and a row satisfies the pair when, over the first
/// `min(row length, pattern length)` bytes, `row & mask == bytes`.
fn hbase_satisfies(row: &[u8], pair_row: &[u8], pair_mask: &[u8]) -> bool {
    assert_eq!(
        pair_row.len(),
        pair_mask.len(),
        "HBase refuses pairs of unequal length"
    );
    let meta: Vec<u8> = pair_mask
        .iter()
        .map(|&m| match m {
            0 => 0xFF,
            1 => 0x00,
            other => panic!("mask byte {other} is neither 0 (fixed) nor 1 (free)"),
        })
        .collect();
    let bytes: Vec<u8> = pair_row.iter().zip(&meta).map(|(b, m)| b & m).collect();
    let n = row.len().min(bytes.len());
    (0..n).all(|i| row[i] & meta[i] == bytes[i])
}

/// The pattern run by the regex crate over bytes. It reads `\xHH` as a
/// code point unless Unicode is off: `(?-u)` makes it byte `HH`. It has no
/// `\C` (RE2's "any byte"); with Unicode off and `(?s)`, `.` is exactly
/// that, so each `\C` is read as `.`.
fn bigtable_regex(fuzzy: &FuzzyKey<24>) -> Regex {
    let re = fuzzy.bigtable_regex();
    assert!(re.starts_with("(?s)^") && re.ends_with(r"\C*"), "{re}");
    Regex::new(&format!("(?-u){}", re.replace(r"\C", "."))).unwrap()
}

/// Bytes that stress each matcher: 0x00, `\n`, 0xFF, regex metacharacters,
/// UTF-8 lead and continuation bytes.
fn byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        Just(0u8),
        Just(b'\n'),
        Just(0xFF),
        Just(0x80),
        Just(0xC3),
        prop::sample::select(b".*+?()[]{}|^$\\".to_vec()),
        any::<u8>(),
    ]
}

#[derive(Debug, Clone)]
enum Part {
    Fixed(Vec<u8>),
    Free(usize),
}

fn pattern() -> impl Strategy<Value = FuzzyKey<24>> {
    let part = prop_oneof![
        prop::collection::vec(byte(), 0..4).prop_map(Part::Fixed),
        (0usize..4).prop_map(Part::Free),
    ];
    prop::collection::vec(part, 0..5).prop_map(|parts| {
        let mut k = FuzzyKey::new();
        for p in parts {
            match p {
                Part::Fixed(b) => k.push_fixed(&b).unwrap(),
                Part::Free(w) => k.push_free(w).unwrap(),
            }
        }
        k
    })
}

/// Keys near the pattern: its bytes with some changed, cut or extended.
fn key_for(fuzzy: &FuzzyKey<24>) -> impl Strategy<Value = Vec<u8>> {
    let base = fuzzy.bytes().to_vec();
    let len = base.len();
    (
        prop::collection::vec((0..len.max(1), byte()), 0..3),
        0..len + 1,
        prop::collection::vec(byte(), 0..4),
        any::<bool>(),
        prop::collection::vec(byte(), 0..12),
    )
        .prop_map(move |(edits, cut, tail, random, other)| {
            if random {
                return other;
            }
            let mut k = base.clone();
            for (i, b) in edits {
                if i < k.len() {
                    k[i] = b;
                }
            }
            if cut < len && tail.is_empty() {
                k.truncate(cut);
            }
            k.extend(tail);
            k
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn three_matchers_agree(
        (fuzzy, keys) in pattern().prop_flat_map(|f| {
            let keys = prop::collection::vec(key_for(&f), 1..8);
            (Just(f), keys)
        })
    ) {
        let re = bigtable_regex(&fuzzy);
        let (row, mask) = fuzzy.hbase_fuzzy_pair();
        prop_assert_eq!(row.len(), fuzzy.len());
        prop_assert!(row.iter().zip(&mask).all(|(&b, &m)| m == 0 || b == 0), "row bytes are 0 where free");
        let owned = FuzzyFilter::from(&fuzzy);
        for key in keys {
            let ours = fuzzy.matches(&key);
            prop_assert_eq!(ours, owned.matches(&key));
            prop_assert_eq!(ours, re.is_match(&key), "regex {} on {:?}", fuzzy.bigtable_regex(), key);
            let hbase = hbase_satisfies(&key, &row, &mask);
            if key.len() >= fuzzy.len() {
                prop_assert_eq!(ours, hbase, "HBase pair on {:?}", key);
            } else {
                // Shorter: never ours; HBase's wherever the bytes it sees agree.
                prop_assert!(!ours);
                let agree = key.iter().zip(fuzzy.bytes()).zip(fuzzy.mask())
                    .all(|((k, b), m)| *m == 1 || k == b);
                prop_assert_eq!(hbase, agree);
            }
        }
    }

    /// A key built from the pattern, with anything at the free bytes and
    /// after it, always matches (so the test above sees matches, not only
    /// misses).
    #[test]
    fn keys_written_through_the_pattern_match(
        fuzzy in pattern(),
        fill in prop::collection::vec(byte(), 24),
        tail in prop::collection::vec(byte(), 0..4),
    ) {
        let mut key: Vec<u8> = fuzzy.bytes().iter().zip(fuzzy.mask()).zip(&fill)
            .map(|((&b, &m), &f)| if m == 1 { f } else { b })
            .collect();
        key.extend(tail);
        prop_assert!(fuzzy.matches(&key));
        prop_assert!(bigtable_regex(&fuzzy).is_match(&key));
        let (row, mask) = fuzzy.hbase_fuzzy_pair();
        prop_assert!(hbase_satisfies(&key, &row, &mask));
    }
}

#[test]
fn the_regex_escapes_every_fixed_byte() {
    let mut k = FuzzyKey::<8>::new();
    k.push_fixed(b".*\n").unwrap();
    k.push_free(2).unwrap();
    k.push_fixed(&[0xFF, 0]).unwrap();
    assert_eq!(k.bigtable_regex(), r"(?s)^\x2E\x2A\x0A\C\C\xFF\x00\C*");
    let re = bigtable_regex(&{
        let mut w = FuzzyKey::<24>::new();
        w.push_fixed(k.bytes()).unwrap();
        w
    });
    // The pattern's own bytes, zero at the free ones, match.
    assert!(re.is_match(k.bytes()));
    assert!(!re.is_match(b"ab\n\0\0\xFF\0"));
}
