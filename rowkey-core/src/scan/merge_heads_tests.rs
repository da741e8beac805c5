//! [`MergeHeads`] fed the way an async merge feeds it (heads arriving late,
//! in any order) gives the same rows as fed at once, and both follow the
//! written-out order: bytes from `from`, then the key after `skip`, equal
//! keys in source order, reversed on demand.

use super::*;
use proptest::prelude::*;

/// Sorted sources of keys over a few bytes (0x00, 0xFF and ties
/// across sources), each at most 4 bytes: prefixes of one another.
fn sources() -> impl Strategy<Value = Vec<Vec<Vec<u8>>>> {
    let key = proptest::collection::vec(prop_oneof![Just(0u8), Just(1), Just(0xFF)], 0..4);
    proptest::collection::vec(proptest::collection::vec(key, 0..6), 0..7)
}

/// Every row of `sources` in `order`, by the rule written out here.
fn expected(sources: &[Vec<Vec<u8>>], order: MergeOrder) -> Vec<(usize, Vec<u8>)> {
    let mut all: Vec<(usize, Vec<u8>)> = sources
        .iter()
        .enumerate()
        .flat_map(|(s, rows)| rows.iter().map(move |r| (s, r.clone())))
        .collect();
    let key = |k: &Vec<u8>| {
        (
            k.get(order.from..).unwrap_or_default().to_vec(),
            k.get(order.skip..).unwrap_or_default().to_vec(),
        )
    };
    all.sort_by(|(sa, a), (sb, b)| {
        let by_key = if order.reversed {
            key(b).cmp(&key(a))
        } else {
            key(a).cmp(&key(b))
        };
        by_key.then(sa.cmp(sb))
    });
    all
}

/// Each source sorted the way the merge reads it: by its order, last
/// first when reversed (ties in a source keep their place).
fn sorted_for(mut sources: Vec<Vec<Vec<u8>>>, order: MergeOrder) -> Vec<Vec<Vec<u8>>> {
    for rows in &mut sources {
        let mine = expected(std::slice::from_ref(rows), order);
        *rows = mine.into_iter().map(|(_, r)| r).collect();
    }
    sources
}

/// Every row `heads` gives over `sources` when heads are answered "not
/// ready" as `waits` says (cycling, but never twice in a row for one
/// source, so every merge ends), as an async merge is fed; checks that no
/// row comes while the next head is awaited.
fn merge_late(
    mut heads: MergeHeads<Vec<u8>>,
    sources: &[Vec<Vec<u8>>],
    waits: &[bool],
) -> Result<Vec<(usize, Vec<u8>)>, TestCaseError> {
    let mut iters: Vec<_> = sources.iter().map(|s| s.iter().cloned()).collect();
    let mut waited = vec![false; iters.len()];
    let (mut got, mut tick) = (Vec::new(), 0usize);
    loop {
        let ready = heads.fill(|s| {
            tick += 1;
            let wait = waits
                .get(tick % waits.len().max(1))
                .copied()
                .unwrap_or(false);
            waited[s] = wait && !waited[s];
            if waited[s] {
                None
            } else {
                Some(iters[s].next())
            }
        });
        if !ready {
            prop_assert!(
                heads.pop().is_none(),
                "no row while the next head is awaited"
            );
            continue;
        }
        match heads.pop() {
            Some((s, row)) => got.push((s, row)),
            None => return Ok(got),
        }
    }
}

proptest! {
    #[test]
    fn late_heads_merge_as_the_written_rule(
        sources in sources(),
        skip in 0usize..2,
        extra in 0usize..2,
        reversed: bool,
        waits in proptest::collection::vec(any::<bool>(), 0..64),
    ) {
        let order = MergeOrder { skip, from: skip + extra, reversed };
        let sources = sorted_for(sources, order);
        let want = expected(&sources, order);
        let got = merge_late(MergeHeads::new(sources.len(), order), &sources, &waits)?;
        prop_assert_eq!(&got, &want);
        // Fed at once, as an iterator merge feeds it.
        let mut iters: Vec<_> = sources.iter().map(|s| s.iter().cloned()).collect();
        let mut heads = MergeHeads::new(iters.len(), order);
        prop_assert!(heads.fill(|s| Some(iters[s].next())));
        let mut rows = Vec::new();
        while let Some(row) = heads.pop_with(|s| iters[s].next()) {
            rows.push(row);
        }
        let want_rows: Vec<Vec<u8>> = want.into_iter().map(|(_, r)| r).collect();
        prop_assert_eq!(rows, want_rows);
    }
}

proptest! {
    /// Bounded sources (each bound a key no later than the source's first
    /// row, in the merge's order) merge exactly as unbounded ones, with
    /// heads arriving late.
    #[test]
    fn bounded_sources_merge_as_the_written_rule(
        sources in sources(),
        bounds in proptest::collection::vec(
            proptest::option::of(proptest::collection::vec(prop_oneof![Just(0u8), Just(1), Just(0xFF)], 0..4)),
            7,
        ),
        skip in 0usize..2,
        extra in 0usize..2,
        reversed: bool,
        waits in proptest::collection::vec(any::<bool>(), 0..64),
    ) {
        let order = MergeOrder { skip, from: skip + extra, reversed };
        let sources = sorted_for(sources, order);
        let want = expected(&sources, order);
        let mut heads = MergeHeads::new(sources.len(), order);
        for (s, rows) in sources.iter().enumerate() {
            // A bound is kept only where it comes no later than the first
            // row (an empty source may have any).
            let Some(bound) = bounds[s].clone() else { continue };
            let valid = rows.first().is_none_or(|first| !order.before(first, s, &bound, s));
            if valid {
                heads.set_bound(s, &bound);
            }
        }
        let got = merge_late(heads, &sources, &waits)?;
        prop_assert_eq!(&got, &want);
    }
}

/// Ranges that do not overlap, each bounded by its start: the merge asks
/// for a source's head only once every row of the sources before it came
/// out (after the first fill, which asks each source once).
#[test]
fn bounded_disjoint_sources_are_read_one_after_another() {
    let order = MergeOrder::logical(1);
    // Buckets 0 and 1 (first byte), ranges a.., c.., e.. in logical order.
    let sources = [
        vec![b"1a1".to_vec(), b"1a2".to_vec()],
        vec![b"0c1".to_vec()],
        vec![b"1e1".to_vec()],
    ];
    let mut heads = MergeHeads::new(3, order);
    for (s, start) in [b"1a", b"0c", b"1e"].iter().enumerate() {
        heads.set_bound(s, &start[..]);
    }
    let mut iters: Vec<_> = sources.iter().map(|s| s.iter().cloned()).collect();
    // The first fill finds nothing ready; from then on only the source
    // whose bound or head comes first is asked.
    assert!(!heads.fill(|_| None));
    let mut asked = Vec::new();
    let mut rows = Vec::new();
    loop {
        assert!(heads.fill(|s| {
            asked.push(s);
            Some(iters[s].next())
        }));
        match heads.pop() {
            Some((_, row)) => rows.push(row),
            None => break,
        }
    }
    assert_eq!(
        rows,
        [
            b"1a1".to_vec(),
            b"1a2".to_vec(),
            b"0c1".to_vec(),
            b"1e1".to_vec()
        ]
    );
    assert_eq!(
        asked,
        [0, 0, 0, 1, 1, 2, 2],
        "each source once its turn comes"
    );
}

#[test]
fn ties_go_to_the_lower_source_both_ways() {
    for reversed in [false, true] {
        let order = MergeOrder {
            skip: 1,
            from: 1,
            reversed,
        };
        assert!(
            order.before(b"1k", 0, b"0k", 1),
            "equal logical keys: source 0 first"
        );
        assert!(!order.before(b"0k", 1, b"1k", 0));
        assert_eq!(order.before(b"0a", 1, b"1b", 0), !reversed);
    }
}

#[test]
fn reversing_before_the_first_pop_merges_largest_first() {
    let mut iters = [
        vec![b"b".to_vec(), b"a".to_vec()].into_iter(),
        vec![b"c".to_vec()].into_iter(),
    ];
    let mut heads = MergeHeads::new(2, MergeOrder::logical(0));
    heads.reverse();
    assert!(heads.fill(|s| Some(iters[s].next())));
    let mut rows = Vec::new();
    while let Some(row) = heads.pop_with(|s| iters[s].next()) {
        rows.push(row);
    }
    assert_eq!(rows, [b"c".to_vec(), b"b".to_vec(), b"a".to_vec()]);
    assert!(!heads.awaits(0) && !heads.awaits(1) && !heads.awaits(2));
}
