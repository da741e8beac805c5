//! Typed scans with fields left free (`Step::any`): every plan, through
//! `MemStore` (`query` and `read_plan`), selects exactly the rows a
//! brute-force filter over a sorted map selects, on layouts with salts
//! (default hash, groups, binary), `#[desc]`, `#[desc_ts]`, padding and a
//! hash prefix, and on values full of 0x00, 0xFF and `\n`.

use futures::executor::block_on;
use futures::TryStreamExt;
use proptest::prelude::*;
use rowkey::scan::ScanPlan;
use rowkey::store::{MemStore, StoreExt};
use rowkey::RowKey;
use std::collections::BTreeMap;

/// The rows of `store` a plan returns, by `query` (logical key order) and
/// by `read_plan` (stored order), as sorted keys.
fn through_store<const N: usize>(
    store: &MemStore,
    plan: &ScanPlan<N>,
) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    block_on(async {
        let keys = |rows: Vec<rowkey::store::Row>| {
            let mut k: Vec<Vec<u8>> = rows.into_iter().map(|r| r.key).collect();
            k.sort();
            k
        };
        let q = keys(store.query(plan).try_collect().await.unwrap());
        let r = keys(store.read_plan(plan).try_collect().await.unwrap());
        (q, r)
    })
}

fn store_of(keys: &BTreeMap<Vec<u8>, ()>) -> MemStore {
    block_on(rowkey_fixtures::stores::mem_store_with_keys(keys.keys()))
}

/// Checks `plan` against `want` (a filter on decoded rows) over `rows`.
fn check<K, const N: usize>(
    rows: &[K],
    plan: &ScanPlan<N>,
    want: impl Fn(&K) -> bool,
) -> Result<(), TestCaseError>
where
    K: RowKey,
{
    let table: BTreeMap<Vec<u8>, ()> = rows.iter().map(|r| (r.to_vec().unwrap(), ())).collect();
    let mut expected: Vec<Vec<u8>> = rows
        .iter()
        .filter(|r| want(r))
        .map(|r| r.to_vec().unwrap())
        .collect();
    expected.sort();
    expected.dedup();
    let by_contains: Vec<Vec<u8>> = table.keys().filter(|k| plan.contains(k)).cloned().collect();
    prop_assert_eq!(&by_contains, &expected, "plan.contains");
    let (q, r) = through_store(&store_of(&table), plan);
    prop_assert_eq!(&q, &expected, "query");
    prop_assert_eq!(&r, &expected, "read_plan");
    Ok(())
}

fn edgy() -> impl Strategy<Value = u8> {
    prop_oneof![
        Just(0u8),
        Just(1),
        Just(b'\n'),
        Just(0xFE),
        Just(0xFF),
        any::<u8>()
    ]
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Event {
    #[salt(buckets = 8, binary)]
    user: u32,
    status: u8,
    #[desc]
    seq: u16,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Ledger {
    #[salt(buckets = 12, group_by = month, range = 1..=4, per_group = 3)]
    #[text(width = 2)]
    month: u8,
    #[salt]
    #[pad(width = 4, fill = 0x01, align = left)]
    user: String,
    #[desc_ts]
    at: i64,
    #[max_len(4)]
    note: Vec<u8>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Hashed {
    #[hash_prefix(len = 2, binary)]
    tenant: u16,
    kind: u8,
    id: i32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(separator = "_")]
struct Joined {
    #[text(width = 3)]
    a: u16,
    #[text(width = 2)]
    b: u8,
    #[max_len(6)]
    c: String,
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn salted_binary_with_the_salted_field_free(
        rows in prop::collection::vec((0u32..6, edgy(), any::<u16>()), 1..80),
        pick in any::<prop::sample::Index>(),
    ) {
        let rows: Vec<Event> = rows.into_iter().map(|(user, status, seq)| Event { user, status, seq }).collect();
        let probe = pick.get(&rows).clone();
        // Every bucket, user free: one status; one status and seq.
        check(&rows, &Event::scan().user.any().status.eq(probe.status).plan().unwrap(),
            |r| r.status == probe.status)?;
        check(&rows, &Event::scan().user.any().status.eq(probe.status).seq.eq(probe.seq).plan().unwrap(),
            |r| r.status == probe.status && r.seq == probe.seq)?;
        // The user fixed (one bucket), status free, a descending seq fixed.
        check(&rows, &Event::scan().user.eq(probe.user).status.any().seq.eq(probe.seq).plan().unwrap(),
            |r| r.user == probe.user && r.seq == probe.seq)?;
        // Everything free is every row.
        check(&rows, &Event::scan().user.any().status.any().seq.any().plan().unwrap(), |_| true)?;
    }

    #[test]
    fn grouped_text_salt_with_padded_and_desc_ts_fields_free(
        rows in prop::collection::vec((1u8..=4, "[a-c\\x00\\n]{1,4}", -3i64..3, prop::collection::vec(edgy(), 0..4)), 1..80),
        pick in any::<prop::sample::Index>(),
    ) {
        let rows: Vec<Ledger> = rows.into_iter()
            .filter(|(_, u, ..)| !u.starts_with('\u{1}'))
            .map(|(month, user, at, note)| Ledger { month, user, at: at.max(0), note })
            .collect();
        prop_assume!(!rows.is_empty());
        let probe = pick.get(&rows).clone();
        // Month fixed (its group's buckets), user free, a time fixed.
        let plan = Ledger::scan().month.eq(probe.month).user.any().at.eq(probe.at).plan().unwrap();
        prop_assert_eq!(plan.len(), 3);
        check(&rows, &plan, |r| r.month == probe.month && r.at == probe.at)?;
        // Month free: every bucket; the user and time fixed.
        check(&rows, &Ledger::scan().month.any().user.eq(&probe.user).at.eq(probe.at).plan().unwrap(),
            |r| r.user == probe.user && r.at == probe.at)?;
        // Month and user fixed, the time free.
        check(&rows, &Ledger::scan().month.eq(probe.month).user.eq(&probe.user).at.any().plan().unwrap(),
            |r| r.month == probe.month && r.user == probe.user)?;
        // The raw last note cannot be pinned after a free field.
        prop_assert!(Ledger::scan().month.any().user.eq(&probe.user).at.eq(probe.at).note.eq(&probe.note).plan().is_err());
    }

    #[test]
    fn hash_prefixed_field_free(
        rows in prop::collection::vec((0u16..5, edgy(), any::<i32>()), 1..80),
        pick in any::<prop::sample::Index>(),
    ) {
        let rows: Vec<Hashed> = rows.into_iter().map(|(tenant, kind, id)| Hashed { tenant, kind, id }).collect();
        let probe = pick.get(&rows).clone();
        check(&rows, &Hashed::scan().tenant.any().kind.eq(probe.kind).plan().unwrap(),
            |r| r.kind == probe.kind)?;
        check(&rows, &Hashed::scan().tenant.eq(probe.tenant).kind.any().id.eq(probe.id).plan().unwrap(),
            |r| r.tenant == probe.tenant && r.id == probe.id)?;
    }

    #[test]
    fn separator_joined_text_free(
        rows in prop::collection::vec((0u16..999, 0u8..99, "[a-z]{0,6}"), 1..80),
        pick in any::<prop::sample::Index>(),
    ) {
        let rows: Vec<Joined> = rows.into_iter().map(|(a, b, c)| Joined { a, b, c }).collect();
        let probe = pick.get(&rows).clone();
        check(&rows, &Joined::scan().a.any().b.eq(probe.b).plan().unwrap(), |r| r.b == probe.b)?;
        check(&rows, &Joined::scan().a.any().b.any().plan().unwrap(), |_| true)?;
        // A raw last field has no end a fuzzy filter could pin: an error,
        // never a plan that also returns longer values.
        let err = Joined::scan().a.any().b.any().c.eq(&probe.c).plan().unwrap_err();
        prop_assert_eq!(err.field(), "c");
    }
}

#[test]
fn a_free_field_keeps_the_leading_range_and_renders_for_both_stores() {
    let plan = Joined::scan().a.eq(42).b.any().plan().unwrap();
    let range = plan.single().unwrap();
    assert_eq!(range.start(), b"042_");
    assert_eq!(range.stop(), Some(&b"042`"[..]));
    let fuzzy = plan.fuzzy().unwrap();
    assert_eq!(fuzzy.bigtable_regex(), r"(?s)^\x30\x34\x32\x5F\C\C\x5F\C*");
    let (row, mask) = fuzzy.hbase_fuzzy_pair();
    assert_eq!(mask, [0, 0, 0, 0, 1, 1, 0]);
    assert_eq!(row, b"042_\0\0_");
    // The cbt form carries the filter too.
    assert!(plan.cbt("t").unwrap().contains("regex="));
}
