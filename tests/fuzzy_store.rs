//! Plans with a fuzzy key through `MemStore`: `query` (with limits, page
//! sizes, read budgets, reversed), `read_plan` and keyset `page` select
//! exactly what a brute-force filter over a sorted map selects, on keys
//! full of 0x00, 0xFF, `\n` and regex metacharacters.

use futures::TryStreamExt;
use proptest::prelude::*;
use rowkey::scan::{FuzzyKey, ScanPlan};
use rowkey::store::{MemStore, QueryOptions, StoreExt};
use rowkey::RowKey;
use rowkey_fixtures::brute::fuzzy_plan_keys;
use std::collections::BTreeMap;

fn byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        Just(0u8),
        Just(b'\n'),
        Just(0xFF),
        Just(b'a'),
        prop::sample::select(b".*?()[]\\^$".to_vec()),
        any::<u8>(),
    ]
}

fn pattern() -> impl Strategy<Value = FuzzyKey<16>> {
    prop::collection::vec((any::<bool>(), 1usize..3, byte()), 0..4).prop_map(|parts| {
        let mut k = FuzzyKey::new();
        for (free, w, b) in parts {
            if free {
                k.push_free(w).unwrap();
            } else {
                k.push_fixed(&vec![b; w]).unwrap();
            }
        }
        k
    })
}

async fn store_of(keys: &BTreeMap<Vec<u8>, ()>) -> MemStore {
    rowkey_fixtures::stores::mem_store_with_keys(keys.keys()).await
}

/// Every key of `plan` through `query_with`, `read_plan` (stored order,
/// the same for an unsalted plan) and keyset pages of `page` rows.
async fn check<const N: usize>(
    store: &MemStore,
    plan: &ScanPlan<N>,
    want: &[Vec<u8>],
    all: &[Vec<u8>],
    options: QueryOptions,
    page: usize,
    stored_order: bool,
) -> Result<(), TestCaseError> {
    let got: Vec<Vec<u8>> = store
        .query_with(plan, options)
        .map_ok(|r| r.key)
        .try_collect()
        .await
        .unwrap();
    prop_assert_eq!(&got, want, "query");
    let mut read: Vec<Vec<u8>> = store
        .read_plan(plan)
        .map_ok(|r| r.key)
        .try_collect()
        .await
        .unwrap();
    if !stored_order {
        // One request: the limit cuts in stored order; compare the sets
        // of a plan without a limit only.
        if plan.limit().is_some() {
            return Ok(());
        }
        read.sort();
        let mut w = want.to_vec();
        w.sort();
        prop_assert_eq!(read, w, "read_plan");
    } else {
        prop_assert_eq!(&read, want, "read_plan");
    }
    let (mut paged, mut resume) = (Vec::new(), None::<rowkey::scan::Cursor>);
    loop {
        let p = store.page(plan, resume.as_ref(), page).await.unwrap();
        paged.extend(p.rows.into_iter().map(|r| r.key));
        match p.next {
            Some(next) => resume = Some(next),
            None => break,
        }
        prop_assert!(paged.len() <= all.len(), "pages do not end");
    }
    // A plan's limit caps the rows of all its pages together.
    prop_assert_eq!(&paged, want, "pages");
    let _ = all;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn unsalted_plans_select_the_brute_force_keys(
        keys in prop::collection::btree_map(prop::collection::vec(byte(), 1..7), Just(()), 0..80),
        fuzzy in pattern(),
        bounds in prop::option::of((prop::collection::vec(byte(), 0..3), prop::option::of(prop::collection::vec(byte(), 0..3)))),
        limit in prop::option::of(1usize..30),
        page_rows in 1usize..8,
        budget in 0usize..20,
        page in 1usize..9,
        reversed: bool,
    ) {
        futures::executor::block_on(async {
            let store = store_of(&keys).await;
            let mut plan = match &bounds {
                Some((start, stop)) => ScanPlan::<16>::from_bounds(start, stop.as_deref()).unwrap(),
                None => ScanPlan::all(),
            }
            .with_fuzzy(fuzzy);
            if reversed { plan = plan.reversed(); }
            if let Some(l) = limit { plan = plan.with_limit(l); }
            let want = fuzzy_plan_keys(keys.keys(), &plan);
            let all = fuzzy_plan_keys(keys.keys(), &plan.clone().with_limit(usize::MAX));
            for k in keys.keys() {
                prop_assert_eq!(plan.contains(k), all.contains(k));
            }
            let options = QueryOptions::default().page_rows(page_rows).buffer_rows(budget);
            check(&store, &plan, &want, &all, options, page, true).await
        })?;
    }
}

/// A salted key with a free leading field: "status X for any user".
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Event {
    #[salt(buckets = 4, binary)]
    user: u32,
    status: u8,
    seq: u16,
}

fn adversarial_u32() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(0u32),
        Just(u32::MAX),
        Just(0x0A0A_0A0A),
        Just(0x2E2A_5C00),
        Just(0xFF00_00FF),
        any::<u32>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn salted_plans_with_a_free_field_select_the_brute_force_keys(
        events in prop::collection::vec((adversarial_u32(), byte(), any::<u16>()), 0..120),
        status in byte(),
        seq_high in prop::option::of(byte()),
        limit in prop::option::of(1usize..40),
        page_rows in 1usize..8,
        budget in 0usize..30,
        page in 1usize..9,
        reversed: bool,
    ) {
        futures::executor::block_on(async {
            let keys: BTreeMap<Vec<u8>, ()> = events
                .iter()
                .map(|&(user, status, seq)| (Event { user, status, seq }.to_vec().unwrap(), ()))
                .collect();
            let store = store_of(&keys).await;
            let mut plan = Event::scan().plan().unwrap();
            let mut fuzzy = FuzzyKey::new();
            fuzzy.push_free(plan.prefix_len() + 4).unwrap();
            fuzzy.push_fixed(&[status]).unwrap();
            if let Some(b) = seq_high {
                fuzzy.push_fixed(&[b]).unwrap();
            }
            plan = plan.with_fuzzy(fuzzy);
            if reversed { plan = plan.reversed(); }
            if let Some(l) = limit { plan = plan.with_limit(l); }
            let want = fuzzy_plan_keys(keys.keys(), &plan);
            let all = fuzzy_plan_keys(keys.keys(), &plan.clone().with_limit(usize::MAX));
            // The typed view of the same question.
            let typed = events.iter().filter(|e| e.1 == status && seq_high.is_none_or(|b| (e.2 >> 8) as u8 == b)).count();
            let distinct: std::collections::BTreeSet<_> = events.iter().filter(|e| e.1 == status && seq_high.is_none_or(|b| (e.2 >> 8) as u8 == b)).collect();
            prop_assert!(typed >= distinct.len());
            prop_assert_eq!(want.len(), distinct.len().min(limit.unwrap_or(usize::MAX)));
            let options = QueryOptions::default().page_rows(page_rows).buffer_rows(budget);
            check(&store, &plan, &want, &all, options, page, false).await
        })?;
    }
}

#[test]
fn a_plan_without_free_bytes_or_rows_reads_nothing_else() {
    futures::executor::block_on(async {
        let mut keys = BTreeMap::new();
        for k in [&b"a\n"[..], b"a.", b"b\n", b"\n", b"a\n\xFF"] {
            keys.insert(k.to_vec(), ());
        }
        let store = store_of(&keys).await;
        let mut fuzzy = FuzzyKey::<16>::new();
        fuzzy.push_free(1).unwrap();
        fuzzy.push_fixed(b"\n").unwrap();
        let plan = ScanPlan::all().with_fuzzy(fuzzy);
        let got: Vec<Vec<u8>> = store
            .query(&plan)
            .map_ok(|r| r.key)
            .try_collect()
            .await
            .unwrap();
        assert_eq!(got, [&b"a\n"[..], b"a\n\xFF", b"b\n"]);
        assert_eq!(
            plan.cbt("t").unwrap(),
            r"cbt read t $'start=' $'regex=(?s)^\\C\\x0A\\C*'".to_owned() + "\n"
        );
    });
}
