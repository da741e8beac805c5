//! Bulk loads through an index (`IndexedStore::put_records`,
//! `put_records_with`, `put_record_stream`, and the blocking
//! `put_records`) against brute force on `MemStore`, with records whose
//! keys, index keys and cells hold adversarial bytes (0x00 and 0xFF
//! tails, `\n`, regex metacharacters) and repeat each other:
//!
//! - the tables a bulk load leaves are, row for row, those `put_record`
//!   called on each record in turn leaves (the oracle runs it), whatever
//!   the batching, however the writes interleave; random index queries
//!   find what a filter over them finds;
//! - a load that crashes in the middle of a write, or is dropped half
//!   way: every index row that landed points at a main row whose write
//!   succeeded before it; every record of a committed batch is found
//!   through the index, and the progress hook counted exactly those;
//! - a record whose key does not encode, or is over a table's limit,
//!   stops the load before its batch is written;
//! - the blocking facade; the load's future is `Send`.
//!
//! The same checks on the seed's trades run on every backend in the
//! conformance suite (`rowkey_fixtures::conformance::bulk`).

use futures::executor::block_on;
use futures::{StreamExt, TryStreamExt};
use proptest::prelude::*;
use rowkey::store::{
    Cell, IndexedStore, KeyLimit, MemStore, PutRecordsOptions, PutRecordsProgress, Record,
    RecordError, Row, Store, StoreError,
};
use rowkey::{IndexOf, RowKey};
use rowkey_fixtures::conformance::bulk::{check_write_order, every_row};
use rowkey_fixtures::stores::{RowBudget, RowBudgetHandle};
use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct ItemKey {
    #[max_len(8)]
    shelf: Vec<u8>,
    id: u8,
}

/// A record: its key's fields and a label only its cells hold.
#[derive(Debug, Clone, PartialEq)]
struct Item {
    shelf: Vec<u8>,
    id: u8,
    label: Vec<u8>,
}

/// Items by label, built from the record: stale when a label changes.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(index_of = Item)]
struct ItemByLabel {
    #[max_len(8)]
    label: Vec<u8>,
    id: u8,
}

impl Record for Item {
    type Key = ItemKey;
    fn key(&self) -> ItemKey {
        ItemKey {
            shelf: self.shelf.clone(),
            id: self.id,
        }
    }
    fn cells(&self) -> Vec<Cell> {
        vec![
            Cell::new("d", "label", self.label.clone()),
            Cell::new("d", "shelf", self.shelf.clone()),
        ]
    }
    fn from_row(row: &Row) -> Result<Self, RecordError> {
        let key: ItemKey = row.key_as()?;
        let label = row.value("d", "label").ok_or("no d:label cell")?.to_vec();
        Ok(Item {
            shelf: key.shelf,
            id: key.id,
            label,
        })
    }
}

fn key_of(x: &Item) -> Vec<u8> {
    x.key().to_vec().unwrap()
}

fn index_of(x: &Item) -> Vec<u8> {
    ItemByLabel::index_key(x).to_vec().unwrap()
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![Just(0u8), Just(0xFF), Just(b'\n'), Just(b'.'), Just(b'*')],
        0..3,
    )
}

/// Items from small domains: main keys and index keys repeat (an item put
/// again with another label; two shelves' items under one label and id).
fn item() -> impl Strategy<Value = Item> {
    (bytes(), 0u8..4, bytes()).prop_map(|(shelf, id, label)| Item { shelf, id, label })
}

fn options() -> impl Strategy<Value = PutRecordsOptions> {
    (1usize..7, 1usize..5)
        .prop_map(|(b, f)| PutRecordsOptions::default().batch_records(b).in_flight(f))
}

/// A table's rows as key -> cells.
fn contents(store: &impl Store) -> BTreeMap<Vec<u8>, Vec<Cell>> {
    block_on(every_row(store))
        .into_iter()
        .map(|r| (r.key, r.cells))
        .collect()
}

type Budgeted = IndexedStore<RowBudget<MemStore>>;

/// Two MemStores behind one row budget (`i64::MAX`: never crashing),
/// their writes ending in an order `seed` shuffles.
fn budgeted(rows: i64, seed: u64) -> (Budgeted, RowBudgetHandle) {
    let budget = RowBudgetHandle::new(rows, seed);
    let store = IndexedStore::new(
        budget.wrap(MemStore::new(), "main"),
        budget.wrap(MemStore::new(), "index"),
    );
    (store, budget)
}

fn load(
    store: &Budgeted,
    items: &[Item],
    options: PutRecordsOptions,
    stream: bool,
) -> (
    Result<PutRecordsProgress, StoreError>,
    Vec<PutRecordsProgress>,
) {
    let mut seen = Vec::new();
    let hook = |p| seen.push(p);
    let done = if stream {
        // A stream that is not ready before every third record.
        let feed = futures::stream::iter(items.iter().cloned())
            .chunks(3)
            .then(|chunk| async move {
                let mut yielded = false;
                std::future::poll_fn(|cx| {
                    if yielded {
                        Poll::Ready(())
                    } else {
                        yielded = true;
                        cx.waker().wake_by_ref();
                        Poll::Pending
                    }
                })
                .await;
                futures::stream::iter(chunk)
            })
            .flatten();
        block_on(store.put_record_stream::<ItemByLabel, _>(feed, options, hook))
    } else {
        block_on(store.put_records_with::<ItemByLabel, _>(items.iter().cloned(), options, hook))
    };
    (done, seen)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn a_bulk_load_leaves_what_put_record_in_turn_leaves(
        items in proptest::collection::vec(item(), 0..60),
        options in options(),
        stream: bool,
        seed: u64,
        prefix in bytes(),
        exact: bool,
        rev: bool,
        limit in proptest::option::of(0usize..10),
    ) {
        let (store, budget) = budgeted(i64::MAX, seed);
        let (done, seen) = load(&store, &items, options, stream);
        let done = done.unwrap();
        prop_assert_eq!((done.records, done.rows), (items.len() as u64, 2 * items.len() as u64));
        prop_assert_eq!(seen.last().copied().unwrap_or_default(), done);
        prop_assert!(budget.log().iter().all(|w| w.ok && w.rows <= options.batch_records));

        // The oracle: put_record on each record in turn.
        let oracle = IndexedStore::new(MemStore::new(), MemStore::new());
        for x in &items {
            block_on(oracle.put_record::<ItemByLabel, _>(x)).unwrap();
        }
        prop_assert_eq!(contents(&store.main().inner), contents(oracle.main()));
        prop_assert_eq!(contents(&store.index().inner), contents(oracle.index()));

        // A random index query against a filter over what was put.
        let mut main: BTreeMap<Vec<u8>, &Item> = BTreeMap::new();
        let mut index: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
        for x in &items {
            main.insert(key_of(x), x);
            index.insert(index_of(x), key_of(x));
        }
        let scan = ItemByLabel::scan();
        let mut plan = if exact {
            scan.label.eq(&prefix[..]).plan().unwrap()
        } else {
            scan.label.starts_with(&prefix[..]).unwrap()
        };
        if rev {
            plan = plan.reversed();
        }
        if let Some(l) = limit {
            plan = plan.with_limit(l);
        }
        let keep = |x: &ItemByLabel| if exact { x.label == prefix } else { x.label.starts_with(&prefix) };
        let mut hits: Vec<(&Vec<u8>, &Vec<u8>)> = index
            .iter()
            .filter(|(x, _)| keep(&ItemByLabel::decode(x).unwrap()))
            .collect();
        if rev {
            hits.reverse();
        }
        hits.truncate(limit.unwrap_or(usize::MAX));
        let (mut records, mut rows, mut stale) = (Vec::new(), Vec::new(), 0);
        for (x, m) in &hits {
            let item = main[*m];
            rows.push((*m).clone());
            if index_of(item) == **x {
                records.push(item.clone());
            } else {
                stale += 1;
            }
        }
        let mut found = store.query_records::<ItemByLabel, Item, _>(&plan);
        let got: Vec<Item> = block_on((&mut found).try_collect()).unwrap();
        prop_assert_eq!(&got, &records);
        let stats = found.stats();
        prop_assert_eq!((stats.hits as usize, stats.stale, stats.missing), (hits.len(), stale, 0));
        let joined: Vec<Vec<u8>> = block_on(store.query_index(&plan).map_ok(|r| r.key).try_collect()).unwrap();
        prop_assert_eq!(joined, rows);
    }

    #[test]
    fn a_load_crashing_in_a_write_leaves_no_index_row_pointing_at_nothing(
        items in proptest::collection::vec(item(), 1..60),
        options in options(),
        stream: bool,
        seed: u64,
        crash_at in 0.0f64..1.0,
    ) {
        let items = distinct(items);
        let rows = (crash_at * 2.0 * items.len() as f64) as i64;
        let (store, budget) = budgeted(rows, seed);
        let (done, seen) = load(&store, &items, options, stream);
        let err = done.unwrap_err();
        prop_assert!(err.is_transient(), "{:?}", err);

        let committed = check_write_order(&budget.log(), "a crashed load");
        prop_assert_eq!(seen.last().map_or(0, |p| p.records), committed.len() as u64);
        found_as_put(&store, &items, &committed);

        // The load again heals it.
        budget.set(i64::MAX);
        let (done, _) = load(&store, &items, options, stream);
        prop_assert_eq!(done.unwrap().records, items.len() as u64);
        let all = ItemByLabel::scan().plan().unwrap();
        let found: Vec<Item> = block_on(store.query_records::<ItemByLabel, _, _>(&all).try_collect()).unwrap();
        prop_assert_eq!(found.len(), items.len());
    }

    #[test]
    fn a_load_dropped_half_way_leaves_no_index_row_pointing_at_nothing(
        items in proptest::collection::vec(item(), 1..60),
        options in options(),
        seed: u64,
        polls in 0usize..40,
    ) {
        let items = distinct(items);
        let (store, budget) = budgeted(i64::MAX, seed);
        let mut last = PutRecordsProgress::default();
        {
            let load = store.put_records_with::<ItemByLabel, _>(items.iter().cloned(), options, |p| last = p);
            let mut load = pin!(load);
            let waker = futures::task::noop_waker();
            let mut cx = Context::from_waker(&waker);
            for _ in 0..polls {
                if load.as_mut().poll(&mut cx).is_ready() {
                    break;
                }
            }
        }
        let committed = check_write_order(&budget.log(), "a dropped load");
        prop_assert_eq!(last.records, committed.len() as u64);
        found_as_put(&store, &items, &committed);
    }
}

/// `items` with each main key and each index key once, so that each item
/// is either found as put or not at all.
fn distinct(items: Vec<Item>) -> Vec<Item> {
    let (mut mains, mut labels) = (BTreeSet::new(), BTreeSet::new());
    items
        .into_iter()
        .filter(|x| mains.insert(key_of(x)) && labels.insert(index_of(x)))
        .collect()
}

/// After a crash of a load of distinct items: no index hit leads nowhere,
/// every committed item is found through the index, as it was put.
fn found_as_put(store: &Budgeted, items: &[Item], committed: &BTreeSet<Vec<u8>>) {
    let all = ItemByLabel::scan().plan().unwrap();
    let mut found = store.query_records::<ItemByLabel, Item, _>(&all);
    let got: Vec<Item> = block_on((&mut found).try_collect()).unwrap();
    assert_eq!((found.stats().missing, found.stats().stale), (0, 0));
    let put: BTreeMap<Vec<u8>, &Item> = items.iter().map(|x| (key_of(x), x)).collect();
    let got: BTreeMap<Vec<u8>, Item> = got.into_iter().map(|x| (key_of(&x), x)).collect();
    for (key, x) in &got {
        assert_eq!(Some(&x), put.get(key), "found as it was put");
    }
    for key in committed {
        assert!(got.contains_key(key), "a committed item is found");
    }
}

fn item_on(shelf: &[u8], id: u8, label: &[u8]) -> Item {
    Item {
        shelf: shelf.to_vec(),
        id,
        label: label.to_vec(),
    }
}

/// A record whose key does not encode stops the load: the batches before
/// it committed, its own batch is not written, nothing after it is read.
#[test]
fn a_record_that_does_not_encode_stops_the_load() {
    let mut items: Vec<Item> = (0..9).map(|i| item_on(b"s\x00", i, b"l\xFF")).collect();
    items[5].label = b"longer than eight".to_vec();
    let store = IndexedStore::new(MemStore::new(), MemStore::new());
    let options = PutRecordsOptions::default().batch_records(2).in_flight(1);
    let mut last = PutRecordsProgress::default();
    let err =
        block_on(
            store.put_records_with::<ItemByLabel, _>(items.iter().cloned(), options, |p| last = p),
        )
        .unwrap_err();
    // The error says which record, by its position and its key's fields.
    let StoreError::InputRecord {
        position,
        key,
        error,
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!((*position, key.as_str()), (5, r"shelf=s\x00, id=5"));
    assert!(matches!(**error, StoreError::Encode(_)), "{err:?}");
    assert_eq!(
        err.to_string(),
        format!(
            "cannot load records: record 5 of the input (counting from 0; key shelf=s\\x00, \
             id=5): {error}"
        )
    );
    assert!(error.to_string().contains("ItemByLabel.label"), "{error}");
    // Batches [0, 1] and [2, 3] committed; 4 was in the batch being
    // filled.
    assert_eq!((last.records, last.batches), (4, 2));
    let keys: Vec<Vec<u8>> = items[..4].iter().map(key_of).collect();
    assert_eq!(store.main().keys(), keys);
    assert_eq!(store.index().len(), 4);
}

/// An index key over the index table's limit is refused before any row
/// of its batch is written, main rows included.
#[test]
fn an_index_key_over_the_limit_is_refused_before_its_batch() {
    let small = KeyLimit {
        max: 5,
        store: "a small table",
    };
    let store = IndexedStore::new(MemStore::new(), MemStore::with_key_limit(small));
    let items = [
        item_on(b"a", 1, b"x"),
        item_on(b"a", 2, b"x"),
        item_on(b"a", 3, b"xyz"),
        item_on(b"a", 4, b"x"),
    ];
    let options = PutRecordsOptions::default().batch_records(2).in_flight(1);
    let err =
        block_on(store.put_records_with::<ItemByLabel, _>(items.iter().cloned(), options, |_| {}))
            .unwrap_err();
    let StoreError::InputRecord {
        position: 2,
        key,
        error,
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(key, "shelf=a, id=3");
    assert!(
        matches!(
            **error,
            StoreError::KeyTooLong {
                max: 5,
                store: "a small table",
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(store.main().len(), 2, "the first batch only");
    assert_eq!(store.index().len(), 2);
}

/// The blocking facade, with the main and index tables blocking on its
/// executor.
#[test]
fn blocking_bulk_load() {
    use rowkey::store::blocking::IndexedMemStore;
    let store = IndexedMemStore::new(IndexedStore::new(MemStore::new(), MemStore::new()));
    let items: Vec<Item> = (0..=255u8)
        .map(|id| item_on(b"\xFF", id, [b"even", b"odd."][usize::from(id % 2)]))
        .collect();
    let mut reports = 0;
    let done = store
        .put_records_with::<ItemByLabel, _>(
            items.iter().cloned(),
            PutRecordsOptions::default().batch_records(100),
            |_| reports += 1,
        )
        .unwrap();
    assert_eq!((done.records, done.batches, reports), (256, 3, 6));
    let odd = ItemByLabel::scan().label.eq(&b"odd."[..]).plan().unwrap();
    let found: Vec<u8> = store
        .query_records::<ItemByLabel, Item, _>(&odd)
        .map(|x| x.unwrap().id)
        .collect();
    assert_eq!(found, (1..=255).step_by(2).collect::<Vec<u8>>());
    assert_eq!(
        store.main().get(&items[7].key()).unwrap().map(|r| r.key),
        Some(key_of(&items[7]))
    );
    assert!(store
        .index()
        .read_row(&index_of(&items[7]))
        .unwrap()
        .is_some());
    // put_records with the defaults: one batch, all rewritten.
    assert_eq!(
        store.put_records::<ItemByLabel, _>(items).unwrap().batches,
        1
    );
}

/// The load's future is `Send` (for tokio's multi-thread runtime) when
/// its records and hook are.
#[test]
fn the_load_is_send() {
    fn send<T: Send>(t: T) -> T {
        t
    }
    let store = IndexedStore::new(MemStore::new(), MemStore::new());
    let items = vec![item_on(b"a", 1, b"x")];
    let load = send(store.put_records::<ItemByLabel, _>(items.clone()));
    assert_eq!(block_on(load).unwrap().records, 1);
    let feed = futures::stream::iter(items);
    let load =
        send(store.put_record_stream::<ItemByLabel, _>(feed, PutRecordsOptions::default(), |_| {}));
    assert_eq!(block_on(load).unwrap().records, 1);
}
