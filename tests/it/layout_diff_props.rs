//! `layout::diff` against what actually happens: generated layouts
//! (`rowkey_fixtures::layout_strategies`), each with one edit and with
//! several at once; keys written under the old layout are read under the
//! new one, and what each does (reads the same, reads as other values,
//! fails, moves bucket) must be what the diff allows. A silent outcome
//! the diff does not name as silent fails the test.

use proptest::prelude::*;
use rowkey::layout::dynamic::Value;
use rowkey::layout::{diff, Effect, LayoutDiff, Verdict};
use rowkey::{DecodeErrorKind, Layout};
use rowkey_fixtures::layout_strategies::{layout_spec, mutation, LayoutSpec, Mutation};

/// What one old key does under the new layout (worked out here, apart
/// from rowkey's own `KeyOutcome`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seen {
    Same,
    Different,
    Fails,
    Moves,
}

/// Old values against new ones: by field name where both have it, else
/// by position; text and bytes alike by their bytes.
fn same(old: &Layout, new: &Layout, a: &[Value], b: &[Value]) -> bool {
    let shown = |v: &Value| match v {
        Value::Text(t) => rowkey::KeyDisplay(t.as_bytes()).to_string(),
        v => v.to_string(),
    };
    new.fields.iter().enumerate().all(|(i, f)| {
        let j = old
            .fields
            .iter()
            .position(|o| o.name == f.name)
            .unwrap_or(i);
        match (a.get(j), b.get(i)) {
            (Some(x), Some(y)) => shown(x) == shown(y),
            _ => true,
        }
    })
}

pub(crate) fn seen(old: &Layout, new: &Layout, key: &[u8]) -> Seen {
    let before = old.decode_key(key).expect("an old key").values();
    match new.decode_key(key) {
        Ok(d) if same(old, new, &before, &d.values()) => Seen::Same,
        Ok(_) => Seen::Different,
        Err(e) if matches!(e.kind(), DecodeErrorKind::SaltMismatch { .. }) => {
            let bare = Layout {
                prefix: None,
                ..*new
            };
            let skip = new.prefix.map_or(0, |p| p.len());
            match bare.decode_key(&key[skip..]) {
                Ok(d) if same(old, new, &before, &d.values()) => Seen::Moves,
                Ok(_) => Seen::Different,
                Err(_) => Seen::Fails,
            }
        }
        Err(_) => Seen::Fails,
    }
}

/// The diff's only doubts are salt changes whose moved share it did not
/// count on the salted fields' values (unknown, or estimated for a
/// uniform hash, which Java's string hash of a few digits is not): the
/// sample may keep every key in its bucket.
fn only_unknown_moves(d: &LayoutDiff) -> bool {
    use rowkey::layout::{MovedShare, ShareBasis};
    d.changes
        .iter()
        .filter(|c| c.effect.verdict() != Verdict::ReadsAsBefore)
        .all(|c| {
            let counted = matches!(
                c.effect,
                Effect::MovesBucket(MovedShare::Counted {
                    basis: ShareBasis::EveryInput,
                    ..
                })
            );
            c.field.as_deref() == Some("<salt>") && !counted
        })
}

/// Two fields of one codec swapped (the diff rightly says values move
/// between them): a key changes only where the two values differ, which
/// a sample need not show (a one-variant enum never does).
fn same_shapes(old: &LayoutSpec, new: &LayoutSpec) -> bool {
    old.fields
        .iter()
        .map(|(_, f)| f)
        .eq(new.fields.iter().map(|(_, f)| f))
}

fn has(d: &LayoutDiff, f: impl Fn(&Effect) -> bool) -> bool {
    d.changes.iter().any(|c| f(&c.effect))
}

/// Every outcome is one the diff allows; `single`: one edit, so a diff
/// that says rows do not read as before is seen on some key.
fn check(
    old_spec: &LayoutSpec,
    new_spec: &LayoutSpec,
    edits: &[Mutation],
    seed: u64,
    single: bool,
) {
    let (old, new) = (old_spec.build(), new_spec.build());
    let keys = old_spec.keys(old, seed, 48);
    assert!(keys.len() >= 40, "values of {old_spec:?} do not encode");
    let d = diff(old, new);
    let outcomes: Vec<Seen> = keys.iter().map(|k| seen(old, new, k)).collect();
    let why =
        || format!("edits {edits:?}\nold {old_spec:?}\nnew {new_spec:?}\n{d}\nseen {outcomes:?}");
    for s in &outcomes {
        match s {
            Seen::Same => {}
            Seen::Different => assert!(
                d.verdict() == Verdict::Silent && has(&d, |e| *e == Effect::DecodesDifferently),
                "a key reads as other values, and the diff names no silent change: {}",
                why()
            ),
            // A salt added or taken away shifts the bytes: the diff says
            // so as a silent change of `<salt>`.
            Seen::Moves => assert!(
                has(&d, |e| matches!(e, Effect::MovesBucket(_)))
                    || d.changes.iter().any(|c| {
                        c.field.as_deref() == Some("<salt>")
                            && c.effect == Effect::DecodesDifferently
                    }),
                "a key moves bucket, and the diff does not say so: {}",
                why()
            ),
            Seen::Fails => assert!(
                has(&d, |e| matches!(
                    e,
                    Effect::FailsToDecode | Effect::DecodesDifferently
                )),
                "a key fails, and the diff does not say so: {}",
                why()
            ),
        }
    }
    if d.reads_as_before() {
        assert!(
            outcomes.iter().all(|s| *s == Seen::Same),
            "the diff says rows read as before: {}",
            why()
        );
    } else if single && !only_unknown_moves(&d) && !same_shapes(old_spec, new_spec) {
        assert!(
            outcomes.iter().any(|s| *s != Seen::Same),
            "the diff says rows change, none does: {}",
            why()
        );
    }
    // Where the diff says every key fails, none reads.
    if d.verdict() == Verdict::FailsLoudly {
        assert!(
            !outcomes
                .iter()
                .any(|s| matches!(s, Seen::Different | Seen::Moves)),
            "{}",
            why()
        );
    }
}

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(600);
    ProptestConfig::with_cases(cases)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn one_edit_at_a_time(spec in layout_spec(), edit in mutation(), seed: u64) {
        if let Some(new) = edit.apply(&spec) {
            check(&spec, &new, std::slice::from_ref(&edit), seed, true);
        }
    }

    #[test]
    fn several_edits_at_once(spec in layout_spec(), edits in proptest::collection::vec(mutation(), 2..5), seed: u64) {
        let mut new = spec.clone();
        let mut made = Vec::new();
        for e in edits {
            if let Some(next) = e.apply(&new) {
                new = next;
                made.push(e);
            }
        }
        check(&spec, &new, &made, seed, false);
    }
}
