//! `LayoutDiff::with_sample` counts each change on every sample key, two
//! and three changes at once (issue 41: a bucket change beside a dropped
//! `#[desc_ts]` was counted as moving no key). Generated layouts get
//! edits on distinct parts (a field each, the salt); each change's count
//! must be the brute force over the sample:
//! - a field's change: the keys that the same edit, *made alone* on the
//!   old layout, makes read otherwise (read whole, apart from rowkey's
//!   own `KeyOutcome`);
//! - the salt's: the keys whose stored bucket is not the one the new
//!   layout writes for their values (each value carried by its field's
//!   spec here), or whose bucket the new salt no longer has.

use super::layout_diff_props::{seen, Seen};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use rowkey::layout::dynamic::{PrefixReport, Value};
use rowkey::layout::{diff, Effect, MovedShare, ShareBasis};
use rowkey::Layout;
use rowkey_fixtures::layout_strategies::{
    layout_spec, mutation, FieldSpec, LayoutSpec, Mutation, SaltSpec,
};
use std::collections::BTreeMap;

/// The part of a key an edit is about: a field, or the salt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Part {
    Field(usize),
    Salt,
}

/// The part `m` edits, for the edits that leave every other field where
/// it was (none added, removed or moved, no salt added or removed).
fn part(m: &Mutation, n: usize) -> Option<Part> {
    use Mutation as M;
    Some(match *m {
        M::ToggleDesc(i)
        | M::SwapFirstVariants(i)
        | M::AppendVariant(i)
        | M::RemoveLastVariant(i)
        | M::FlipSign(i)
        | M::WidenInt(i)
        | M::DigitsWidth(i, _)
        | M::ToggleReverse(i)
        | M::EscapedMaxLen(i, _)
        | M::TextBytes(i)
        | M::PadFill(i)
        | M::PadSide(i)
        | M::BinaryToDigits(i) => Part::Field(i % n),
        M::SaltBuckets(_) | M::SaltHash(_) | M::SaltInputs(_) => Part::Salt,
        _ => return None,
    })
}

/// A layout of at least `k - 1` fields (an integer added where it has
/// fewer), salted two times in three (12 buckets over its first field
/// where the generator gave none), and candidate edits.
fn case(k: usize) -> impl Strategy<Value = (LayoutSpec, Vec<Mutation>, u64)> {
    let spec = (layout_spec(), 0u8..3, any::<bool>()).prop_map(move |(mut s, salted, binary)| {
        while s.fields.len() + 1 < k {
            let name = format!("f{}", s.fields.len());
            s.fields.push((
                name,
                FieldSpec::Int {
                    bytes: 2,
                    signed: false,
                    desc: false,
                },
            ));
        }
        if s.salt.is_none() && salted > 0 {
            s.salt = Some(SaltSpec {
                buckets: 12,
                binary,
                hash: rowkey::salt::SaltHash::Default,
                inputs: vec![0],
            });
        }
        s
    });
    (
        spec,
        proptest::collection::vec(mutation(), 8..16),
        any::<u64>(),
    )
}

/// Up to `k` of the edits that apply, each on a part of its own, made in
/// turn: the new spec and each edit with its part.
fn edits(
    spec: &LayoutSpec,
    candidates: &[Mutation],
    k: usize,
) -> (LayoutSpec, Vec<(Part, Mutation)>) {
    let mut new = spec.clone();
    let mut made: Vec<(Part, Mutation)> = Vec::new();
    for m in candidates {
        if made.len() == k {
            break;
        }
        let Some(p) = part(m, spec.fields.len()) else {
            continue;
        };
        if made.iter().any(|(q, _)| *q == p) {
            continue;
        }
        if let (Some(next), Some(_)) = (m.apply(&new), m.apply(spec)) {
            new = next;
            made.push((p, m.clone()));
        }
    }
    (new, made)
}

/// `v`, a value of `old`, as a value of `new` (the same field after an
/// edit): an enum's variant by name, text and bytes by their bytes, an
/// integer by its number; `None` where `new` has no such value.
fn carry(
    v: &Value,
    old: &FieldSpec,
    new: &FieldSpec,
    new_layout: &rowkey::FieldLayout,
) -> Option<Value> {
    match (old, new, v) {
        (FieldSpec::Enum { .. }, FieldSpec::Enum { variants, .. }, Value::Enum { variant, .. }) => {
            let index = variants.iter().position(|x| x == variant)?;
            let rowkey::ValueKind::Enum { variants, .. } = new_layout.value else {
                unreachable!()
            };
            Some(Value::Enum {
                variant: variants[index],
                index: index as u8,
            })
        }
        (_, FieldSpec::Escaped { text: false, .. }, Value::Text(t)) => {
            Some(Value::Bytes(t.as_bytes().to_vec()))
        }
        (_, FieldSpec::Escaped { text: true, .. }, Value::Bytes(b)) => {
            String::from_utf8(b.clone()).ok().map(Value::Text)
        }
        (
            _,
            FieldSpec::Int { signed: true, .. } | FieldSpec::Digits { signed: true, .. },
            Value::UInt(u),
        ) => i128::try_from(*u).ok().map(Value::Int),
        (
            _,
            FieldSpec::Int { signed: false, .. } | FieldSpec::Digits { signed: false, .. },
            Value::Int(i),
        ) => u128::try_from(*i).ok().map(Value::UInt),
        _ => Some(v.clone()),
    }
}

/// Whether the key's stored bucket is not the one `new` writes for its
/// values, or one `new` does not have.
fn salt_moves(
    old_spec: &LayoutSpec,
    new_spec: &LayoutSpec,
    old: &Layout,
    new: &Layout,
    key: &[u8],
) -> bool {
    let d = old.decode_key(key).expect("an old key");
    let values: Option<Vec<Value>> = d
        .values()
        .iter()
        .zip(old_spec.fields.iter().zip(&new_spec.fields))
        .zip(new.fields)
        .map(|((v, ((_, o), (_, n))), nl)| carry(v, o, n, nl))
        .collect();
    let plen = new.prefix.map_or(0, |p| p.len());
    match values.and_then(|v| new.encode_key(&v, None).ok()) {
        Some(rewritten) => rewritten[..plen] != key[..plen],
        None => false,
    }
}

fn stored_bucket(old: &Layout, key: &[u8]) -> u32 {
    match old.decode_key(key).expect("an old key").prefix {
        Some(PrefixReport::Bucket { bucket, .. }) => bucket,
        p => panic!("a salted key without a bucket: {p:?}"),
    }
}

#[derive(Debug, Default)]
struct Tally {
    cases: u64,
    by_changes: BTreeMap<usize, u64>,
    changes_checked: u64,
    keys: u64,
    /// Cases where two or more changes each affect some key, and some
    /// key is affected by two at once.
    overlapping: u64,
    salt_and_field: u64,
}

fn check(
    old_spec: &LayoutSpec,
    new_spec: &LayoutSpec,
    made: &[(Part, Mutation)],
    seed: u64,
    tally: &mut Tally,
) -> Result<(), TestCaseError> {
    let (old, new) = (old_spec.build(), new_spec.build());
    let keys = old_spec.keys(old, seed, 64);
    prop_assume!(keys.len() >= 40);
    let d = diff(old, new).with_sample(old, new, &keys);
    let why = || format!("edits {made:?}\nold {old_spec:?}\nnew {new_spec:?}\n{d}");
    // Each key, per part: which edits affect it (brute force).
    let mut per_key: Vec<Vec<Part>> = vec![Vec::new(); keys.len()];
    for change in &d.changes {
        let count = change
            .sample
            .ok_or_else(|| TestCaseError::fail(format!("no count: {}", why())))?;
        prop_assert_eq!(count.of, keys.len() as u64, "{}", why());
        let field = change.field.as_deref().unwrap_or("");
        let salt_alone = || {
            let (_, m) = made
                .iter()
                .find(|(p, _)| *p == Part::Salt)
                .expect("a salt edit");
            m.apply(old_spec).expect("applies alone").build()
        };
        let brute: Vec<bool> = if field == "<salt>" && change.what.contains("the bucket takes") {
            // Buckets of another width: every later byte moves, counted
            // as the salt's edit alone does.
            let alone = salt_alone();
            keys.iter()
                .map(|k| seen(old, alone, k) != Seen::Same)
                .collect()
        } else if field == "<salt>" {
            let buckets_gone = change.what.contains("are in no bucket of the new layout");
            let new_buckets = new_spec.salt.as_ref().map_or(0, |s| s.buckets);
            keys.iter()
                .map(|k| match buckets_gone {
                    true => stored_bucket(old, k) >= new_buckets,
                    false => salt_moves(old_spec, new_spec, old, new, k),
                })
                .collect()
        } else {
            let i = old_spec
                .fields
                .iter()
                .position(|(name, _)| name == field)
                .ok_or_else(|| TestCaseError::fail(format!("change of no field: {}", why())))?;
            let (_, m) = made
                .iter()
                .find(|(p, _)| *p == Part::Field(i))
                .ok_or_else(|| {
                    TestCaseError::fail(format!("field {field} not edited: {}", why()))
                })?;
            let alone = m.apply(old_spec).expect("applies alone").build();
            keys.iter()
                .map(|k| seen(old, alone, k) != Seen::Same)
                .collect()
        };
        let brute_count = brute.iter().filter(|b| **b).count() as u64;
        prop_assert_eq!(
            count.affected,
            brute_count,
            "change `{}`: counted {}, brute force {}\n{}",
            change,
            count.affected,
            brute_count,
            why()
        );
        if let Effect::MovesBucket(share) = change.effect {
            prop_assert_eq!(
                share,
                MovedShare::Counted {
                    moved: brute_count,
                    of: keys.len() as u64,
                    basis: ShareBasis::SampleKeys
                }
            );
        }
        let p = if field == "<salt>" {
            Part::Salt
        } else {
            Part::Field(
                old_spec
                    .fields
                    .iter()
                    .position(|(n, _)| n == field)
                    .unwrap(),
            )
        };
        for (k, hit) in brute.iter().enumerate() {
            if *hit && !per_key[k].contains(&p) {
                per_key[k].push(p);
            }
        }
        tally.changes_checked += 1;
    }
    tally.cases += 1;
    *tally.by_changes.entry(made.len()).or_default() += 1;
    tally.keys += keys.len() as u64;
    if per_key.iter().any(|ps| ps.len() >= 2) {
        tally.overlapping += 1;
        if per_key
            .iter()
            .any(|ps| ps.contains(&Part::Salt) && ps.len() >= 2)
        {
            tally.salt_and_field += 1;
        }
    }
    Ok(())
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(400)
}

/// Runs `k` edits at once over generated layouts; prints the tally.
fn run(k: usize) -> Tally {
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        max_global_rejects: cases() * 50,
        ..Config::default()
    });
    let tally = std::cell::RefCell::new(Tally::default());
    let result = runner.run(&case(k), |(spec, candidates, seed)| {
        let (new, made) = edits(&spec, &candidates, k);
        prop_assume!(made.len() == k);
        check(&spec, &new, &made, seed, &mut tally.borrow_mut())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let tally = tally.into_inner();
    println!("{k} changes at once: {tally:?}");
    tally
}

#[test]
fn each_of_two_changes_is_counted_on_every_key() {
    let t = run(2);
    // Not vacuous: keys two changes both affect, the salt's among them.
    assert!(t.overlapping * 4 >= t.cases, "{t:?}");
    assert!(t.salt_and_field * 10 >= t.cases, "{t:?}");
}

#[test]
fn each_of_three_changes_is_counted_on_every_key() {
    let t = run(3);
    assert!(t.overlapping * 4 >= t.cases, "{t:?}");
    assert!(t.salt_and_field * 10 >= t.cases, "{t:?}");
}
