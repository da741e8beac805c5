//! `IndexedTable`: one table of records with two indexes, a dense one
//! (by sender, derived) and a sparse one (replies by thread: top-level
//! messages have no row), against brute force over a sorted map. Random
//! puts, updates and deletes of records with adversarial bytes, each
//! run cut short by a crash at a random write (the writes and deletes of
//! all three tables count), checked at the crash and after the cut write
//! is run again; an update stopped at each of its writes; bulk loads that
//! crash, and two overlapping loads at once.

use futures::executor::block_on;
use futures::TryStreamExt;
use proptest::prelude::*;
use rowkey::store::{
    Cell, IndexedTable, KeyRange, MemStore, PutRecordsOptions, ReadRequest, Record, RecordError,
    Row, Store, StoreError,
};
use rowkey::{RowKey, SparseIndexOf};
use rowkey_fixtures::stores::{FaultyStore, RowBudget, RowBudgetHandle};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

#[derive(RowKey, Debug, Clone, PartialEq)]
struct MsgKey {
    #[max_len(4)]
    ch: Vec<u8>,
    at: u8,
}

/// A message: its key's fields, a sender and, for a reply, its thread.
#[derive(Debug, Clone, PartialEq)]
struct Msg {
    ch: Vec<u8>,
    at: u8,
    sender: Vec<u8>,
    thread: Option<u8>,
}

impl Record for Msg {
    type Key = MsgKey;
    fn key(&self) -> MsgKey {
        MsgKey {
            ch: self.ch.clone(),
            at: self.at,
        }
    }
    fn cells(&self) -> Vec<Cell> {
        // `d:t` is written for top-level messages too (empty): a write
        // merges cells into the row, so a cell left out would keep the
        // thread of the message's last version.
        let thread: &[u8] = match &self.thread {
            Some(t) => std::slice::from_ref(t),
            None => &[],
        };
        vec![
            Cell::new("d", "s", self.sender.clone()),
            Cell::new("d", "t", thread),
        ]
    }
    fn from_row(row: &Row) -> Result<Self, RecordError> {
        let key: MsgKey = row.key_as()?;
        let sender = row.value("d", "s").ok_or("no d:s cell")?.to_vec();
        let thread = match row.value("d", "t").ok_or("no d:t cell")? {
            [t] => Some(*t),
            [] => None,
            _ => return Err("d:t is neither empty nor one byte".into()),
        };
        Ok(Msg {
            ch: key.ch,
            at: key.at,
            sender,
            thread,
        })
    }
}

/// Every message by sender: dense, and stale when the sender changes.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(index_of = Msg)]
struct BySender {
    #[max_len(4)]
    sender: Vec<u8>,
    #[max_len(4)]
    ch: Vec<u8>,
    at: u8,
}

/// Replies by thread: sparse, a message moves in and out of it.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct ReplyByThread {
    #[max_len(4)]
    ch: Vec<u8>,
    thread: u8,
    at: u8,
}

impl SparseIndexOf<Msg> for ReplyByThread {
    fn sparse_index_key(m: &Msg) -> Option<Self> {
        Some(ReplyByThread {
            ch: m.ch.clone(),
            thread: m.thread?,
            at: m.at,
        })
    }
}

fn key_of(m: &Msg) -> Vec<u8> {
    m.key().to_vec().unwrap()
}

fn by_sender(m: &Msg) -> Option<Vec<u8>> {
    BySender::sparse_index_key(m).map(|x| x.to_vec().unwrap())
}

fn by_thread(m: &Msg) -> Option<Vec<u8>> {
    ReplyByThread::sparse_index_key(m).map(|x| x.to_vec().unwrap())
}

type Table = IndexedTable<Msg, FaultyStore>;

/// A table with both indexes, its three stores failing every write and
/// delete once the shared budget is spent: the one that fails is the
/// crash point.
fn faulty_table() -> (Table, Arc<AtomicI64>) {
    let budget = Arc::new(AtomicI64::new(i64::MAX));
    let store = || {
        let b = budget.clone();
        FaultyStore::new(Arc::new(move |op| {
            (b.fetch_sub(1, Ordering::SeqCst) <= 0)
                .then(|| StoreError::transient(op, "crashed here"))
        }))
    };
    let table = IndexedTable::new(store())
        .with_index::<BySender>(store())
        .with_index::<ReplyByThread>(store());
    (table, budget)
}

#[derive(Debug, Clone)]
enum Op {
    /// `put_record`: a blind put may leave old index rows behind.
    Put(Msg),
    /// `update_record`: moves, adds and removes index rows.
    Update(Msg),
    /// `delete_record` of the n-th stored message, as stored.
    Delete(usize),
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![Just(0u8), Just(0xFF), Just(b'\n'), Just(b'.')],
        0..3,
    )
}

/// Messages from small domains, so that keys repeat and records move.
fn msg() -> impl Strategy<Value = Msg> {
    (bytes(), 0u8..3, bytes(), proptest::option::of(0u8..2)).prop_map(|(ch, at, sender, thread)| {
        Msg {
            ch,
            at,
            sender,
            thread,
        }
    })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        1 => msg().prop_map(Op::Put),
        3 => msg().prop_map(Op::Update),
        1 => any::<usize>().prop_map(Op::Delete),
    ]
}

fn nth(main: &BTreeMap<Vec<u8>, Msg>, n: usize) -> Option<Msg> {
    (!main.is_empty()).then(|| main.values().nth(n % main.len()).unwrap().clone())
}

async fn apply(table: &Table, op: &Op, stored: Option<&Msg>) -> Result<(), StoreError> {
    match op {
        Op::Put(m) => table.put_record(m).await,
        Op::Update(m) => table.update_record(m).await,
        Op::Delete(_) => match stored {
            Some(m) => table.delete_record(m).await,
            None => Ok(()),
        },
    }
}

/// The messages the main table holds.
fn stored(table: &Table) -> BTreeMap<Vec<u8>, Msg> {
    let all = ReadRequest::new([KeyRange::new([], None)]);
    let rows: Vec<Row> = block_on(table.main().read_rows(all).try_collect()).unwrap();
    rows.into_iter()
        .map(|r| (r.key.clone(), Msg::from_row(&r).unwrap()))
        .collect()
}

/// What each index must find of `main` (brute force: the messages it
/// holds a key for, in key order), and what the table finds, with the
/// hits it skipped.
struct Found {
    sender: (Vec<Msg>, Vec<Msg>, u64),
    thread: (Vec<Msg>, Vec<Msg>, u64),
    /// Hits that led to no main row, in both indexes.
    missing: u64,
}

fn want(main: &BTreeMap<Vec<u8>, Msg>, key: fn(&Msg) -> Option<Vec<u8>>) -> Vec<Msg> {
    let by: BTreeMap<Vec<u8>, &Msg> = main.values().filter_map(|m| Some((key(m)?, m))).collect();
    by.into_values().cloned().collect()
}

fn found(table: &Table, main: &BTreeMap<Vec<u8>, Msg>) -> Found {
    let mut s = table.query::<BySender, _>(&BySender::scan().plan().unwrap());
    let got_s: Vec<Msg> = block_on((&mut s).try_collect()).unwrap();
    let mut t = table.query::<ReplyByThread, _>(&ReplyByThread::scan().plan().unwrap());
    let got_t: Vec<Msg> = block_on((&mut t).try_collect()).unwrap();
    for stats in [s.stats(), t.stats()] {
        assert_eq!(stats.hits, stats.joined + stats.stale + stats.missing);
    }
    Found {
        sender: (
            got_s,
            want(main, by_sender),
            s.stats().stale + s.stats().missing,
        ),
        thread: (
            got_t,
            want(main, by_thread),
            t.stats().stale + t.stats().missing,
        ),
        missing: s.stats().missing + t.stats().missing,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn two_indexes_one_sparse_stay_the_models_through_crashes(
        ops in proptest::collection::vec(op(), 0..30),
        crash in proptest::option::of((any::<prop::sample::Index>(), 0i64..6)),
        sender_prefix in bytes(),
        rev: bool,
    ) {
        let (table, budget) = faulty_table();
        let mut model: BTreeMap<Vec<u8>, Msg> = BTreeMap::new();
        let crash_at = crash.map(|(i, writes)| (i.index(ops.len().max(1)), writes));
        for (i, op) in ops.iter().enumerate() {
            let target = match op {
                Op::Delete(n) => nth(&model, *n),
                _ => None,
            };
            if let Some((at, writes)) = crash_at.filter(|(at, _)| *at == i) {
                budget.store(writes, Ordering::SeqCst);
                let cut = block_on(apply(&table, op, target.as_ref()));
                budget.store(i64::MAX, Ordering::SeqCst);
                // At the crash: each index finds exactly the stored
                // messages it holds a key for, except perhaps the one
                // being written, and that one only as it is stored.
                let main = stored(&table);
                let key = match op {
                    Op::Put(m) | Op::Update(m) => Some(key_of(m)),
                    Op::Delete(_) => target.as_ref().map(key_of),
                };
                let f = found(&table, &main);
                // An index row is written after its main row: until a
                // message is deleted, no hit leads nowhere.
                if !ops[..=i].iter().any(|o| matches!(o, Op::Delete(_))) {
                    prop_assert_eq!(f.missing, 0, "op {} cut after {} writes", at, writes);
                }
                // An update of a stored message keeps it found at every
                // step: as it was, then as it is.
                let moving = matches!(op, Op::Update(m) if model.contains_key(&key_of(m)));
                for (got, want, _) in [f.sender, f.thread] {
                    if moving {
                        prop_assert_eq!(&got, &want, "op {} cut after {} writes", at, writes);
                    }
                    let without: Vec<Msg> = want.iter().filter(|m| Some(key_of(m)) != key).cloned().collect();
                    prop_assert!(got == want || got == without, "op {} cut ({:?}) after {} writes: found {:?}, stored {:?}", at, cut, writes, got, want);
                }
                // Every message not being written is where it was.
                for (k, m) in &model {
                    if Some(k) != key.as_ref() {
                        prop_assert_eq!(main.get(k), Some(m));
                    }
                }
            }
            // The write, again or for the first time, ends it.
            block_on(apply(&table, op, target.as_ref())).unwrap();
            match op {
                Op::Put(m) | Op::Update(m) => { model.insert(key_of(m), m.clone()); }
                Op::Delete(_) => { if let Some(m) = &target { model.remove(&key_of(m)); } }
            }
        }
        prop_assert_eq!(&stored(&table), &model);
        let f = found(&table, &model);
        prop_assert_eq!(&f.sender.0, &f.sender.1);
        prop_assert_eq!(&f.thread.0, &f.thread.1);
        // No top-level message has a row in the sparse index.
        let replies = model.values().filter(|m| m.thread.is_some()).count();
        let blind = ops.iter().any(|o| matches!(o, Op::Put(_))) || crash_at.is_some();
        if !blind {
            // Updates and deletes alone leave exactly the model's rows.
            prop_assert_eq!((f.sender.2, f.thread.2), (0, 0));
            prop_assert_eq!(table.index::<ReplyByThread>().unwrap().inner.len(), replies);
            prop_assert_eq!(table.index::<BySender>().unwrap().inner.len(), model.len());
        }

        // A query with a prefix, reversed, limited: brute force.
        let plan = BySender::scan().sender.starts_with(&sender_prefix[..]).unwrap();
        let plan = if rev { plan.reversed() } else { plan };
        let got: Vec<Msg> = block_on(table.query::<BySender, _>(&plan).try_collect()).unwrap();
        let mut want: Vec<Msg> = f.sender.1.iter().filter(|m| m.sender.starts_with(&sender_prefix)).cloned().collect();
        if rev {
            want.reverse();
        }
        prop_assert_eq!(got, want);
    }
}

fn msg_of(sender: &[u8], thread: Option<u8>) -> Msg {
    Msg {
        ch: b"c\x00\xFF".to_vec(),
        at: 1,
        sender: sender.to_vec(),
        thread,
    }
}

/// An update that moves a message to another sender, out of one thread's
/// replies and... stopped at each of its writes: each index finds it at
/// most once, as stored; run again, exactly once, as updated.
#[test]
fn an_update_stopped_at_each_write() {
    // Sender a -> b (a move), thread 0 -> none (out of the sparse index);
    // then back: thread none -> 1 (into it) with the sender unchanged.
    let steps = [
        (msg_of(b"a", Some(0)), msg_of(b"b", None)),
        (msg_of(b"b", None), msg_of(b"b", Some(1))),
    ];
    for (before, after) in steps {
        for writes in 0..6 {
            let (table, budget) = faulty_table();
            block_on(table.put_record(&before)).unwrap();
            budget.store(writes, Ordering::SeqCst);
            let cut = block_on(table.update_record(&after));
            budget.store(i64::MAX, Ordering::SeqCst);
            let main = stored(&table);
            let now = main.values().next().unwrap().clone();
            assert!(now == before || now == after, "{writes} writes");
            let f = found(&table, &main);
            for (got, want, _) in [f.sender, f.thread] {
                assert!(
                    got.is_empty() || got == want,
                    "{writes} writes ({cut:?}): {got:?}"
                );
            }
            block_on(table.update_record(&after)).unwrap();
            let f = found(&table, &stored(&table));
            assert_eq!(f.sender.0, std::slice::from_ref(&after));
            assert_eq!(
                f.thread.0,
                Vec::from_iter(after.thread.map(|_| after.clone()))
            );
        }
    }
}

/// A query through an index the table was not given is an error naming
/// it, not an empty answer.
#[test]
fn a_query_through_a_missing_index_is_an_error() {
    let table: IndexedTable<Msg, MemStore> =
        IndexedTable::new(MemStore::new()).with_index::<BySender>(MemStore::new());
    let plan = ReplyByThread::scan().plan().unwrap();
    let err = block_on(
        table
            .query::<ReplyByThread, _>(&plan)
            .try_collect::<Vec<_>>(),
    )
    .unwrap_err();
    assert!(matches!(
        err,
        StoreError::NoSuchIndex {
            index: "ReplyByThread"
        }
    ));
    assert_eq!(
        err.to_string(),
        "cannot query an index: the table has no index ReplyByThread (give it one with `with_index::<ReplyByThread>`)"
    );
    assert_eq!(table.index_names().collect::<Vec<_>>(), ["BySender"]);
}

type Budgeted = IndexedTable<Msg, RowBudget<MemStore>>;

fn budgeted(rows: i64, seed: u64) -> (Budgeted, RowBudgetHandle) {
    let budget = RowBudgetHandle::new(rows, seed);
    let table = IndexedTable::new(budget.wrap(MemStore::new(), "main"))
        .with_index::<BySender>(budget.wrap(MemStore::new(), "sender"))
        .with_index::<ReplyByThread>(budget.wrap(MemStore::new(), "thread"));
    (table, budget)
}

fn budgeted_found(table: &Budgeted) -> (Vec<Msg>, Vec<Msg>, BTreeMap<Vec<u8>, Msg>) {
    let all = ReadRequest::new([KeyRange::new([], None)]);
    let rows: Vec<Row> = block_on(table.main().read_rows(all).try_collect()).unwrap();
    let main: BTreeMap<Vec<u8>, Msg> = rows
        .iter()
        .map(|r| (r.key.clone(), Msg::from_row(r).unwrap()))
        .collect();
    let mut s = table.query::<BySender, _>(&BySender::scan().plan().unwrap());
    let mut t = table.query::<ReplyByThread, _>(&ReplyByThread::scan().plan().unwrap());
    let found = (
        block_on((&mut s).try_collect()).unwrap(),
        block_on((&mut t).try_collect()).unwrap(),
    );
    // Stores are written main rows first: no index hit leads nowhere.
    assert_eq!((s.stats().missing, t.stats().missing), (0, 0));
    (found.0, found.1, main)
}

fn options() -> impl Strategy<Value = PutRecordsOptions> {
    (1usize..7, 1usize..5)
        .prop_map(|(b, f)| PutRecordsOptions::default().batch_records(b).in_flight(f))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// A load that crashes in a write (rows land in a random order, a
    /// random few of the crashing write's): no index row of either index
    /// points at nothing, every message found is found as stored; the
    /// load run again leaves exactly its messages in both indexes.
    #[test]
    fn a_load_crashing_in_a_write_heals_when_run_again(
        msgs in proptest::collection::vec(msg(), 1..50),
        options in options(),
        seed: u64,
        crash_at in 0.0f64..1.0,
    ) {
        let rows = (crash_at * 2.5 * msgs.len() as f64) as i64;
        let (table, budget) = budgeted(rows, seed);
        let done = block_on(table.put_records_with(msgs.clone(), options, |_| {}));
        let (s, t, main) = budgeted_found(&table);
        if let Err(e) = &done {
            prop_assert!(e.is_transient(), "{:?}", e);
        }
        // A message whose main row landed may not be in an index yet;
        // none is found but as stored, and no hit leads nowhere.
        for (got, key) in [(&s, by_sender as fn(&Msg) -> Option<Vec<u8>>), (&t, by_thread)] {
            let stored = want(&main, key);
            prop_assert!(got.iter().all(|m| stored.contains(m)), "{:?} not all in {:?}", got, stored);
        }

        budget.set(i64::MAX);
        let done = block_on(table.put_records_with(msgs.clone(), options, |_| {})).unwrap();
        prop_assert_eq!(done.records, msgs.len() as u64);
        let last: BTreeMap<Vec<u8>, Msg> = msgs.iter().map(|m| (key_of(m), m.clone())).collect();
        let (s, t, main) = budgeted_found(&table);
        prop_assert_eq!(&main, &last);
        prop_assert_eq!(s, want(&last, by_sender));
        prop_assert_eq!(t, want(&last, by_thread));
    }

    /// Two loads of overlapping messages at once (one key, two versions):
    /// each key ends holding one of its versions, and both indexes find
    /// exactly what the main table holds.
    #[test]
    fn two_overlapping_loads_at_once(
        a in proptest::collection::vec(msg(), 1..40),
        b in proptest::collection::vec(msg(), 1..40),
        options in options(),
        seed: u64,
    ) {
        let (table, _) = budgeted(i64::MAX, seed);
        let (ra, rb) = block_on(futures::future::join(
            table.put_records_with(a.clone(), options, |_| {}),
            table.put_records_with(b.clone(), options, |_| {}),
        ));
        prop_assert_eq!((ra.unwrap().records, rb.unwrap().records), (a.len() as u64, b.len() as u64));
        let (s, t, main) = budgeted_found(&table);
        for (k, m) in &main {
            prop_assert!(a.iter().chain(&b).any(|x| &key_of(x) == k && x == m));
        }
        let keys: std::collections::BTreeSet<Vec<u8>> = a.iter().chain(&b).map(key_of).collect();
        prop_assert_eq!(main.keys().cloned().collect::<std::collections::BTreeSet<_>>(), keys);
        prop_assert_eq!(s, want(&main, by_sender));
        prop_assert_eq!(t, want(&main, by_thread));
    }
}

/// A record with nothing to store: `update_record` refuses it before it
/// writes anything, index rows included (they go ahead of the main row
/// when the record moves).
#[test]
fn an_update_to_a_row_without_cells_writes_nothing() {
    #[derive(Debug, Clone, PartialEq)]
    struct Tag {
        id: u8,
        label: Option<Vec<u8>>,
    }
    #[derive(RowKey)]
    struct TagKey {
        id: u8,
    }
    impl Record for Tag {
        type Key = TagKey;
        fn key(&self) -> TagKey {
            TagKey { id: self.id }
        }
        fn cells(&self) -> Vec<Cell> {
            self.label.iter().map(|l| Cell::new("d", "l", l)).collect()
        }
        fn from_row(row: &Row) -> Result<Self, RecordError> {
            let id = row.key_as::<TagKey>()?.id;
            Ok(Tag {
                id,
                label: row.value("d", "l").map(<[u8]>::to_vec),
            })
        }
    }
    #[derive(RowKey)]
    struct ByLabel {
        #[max_len(8)]
        label: Vec<u8>,
        id: u8,
    }
    impl SparseIndexOf<Tag> for ByLabel {
        fn sparse_index_key(t: &Tag) -> Option<Self> {
            Some(ByLabel {
                label: t.label.clone()?,
                id: t.id,
            })
        }
    }
    let table: IndexedTable<Tag, MemStore> =
        IndexedTable::new(MemStore::new()).with_index::<ByLabel>(MemStore::new());
    block_on(table.put_record(&Tag {
        id: 1,
        label: Some(b"a".to_vec()),
    }))
    .unwrap();
    let before = table.index::<ByLabel>().unwrap().keys();
    let err = block_on(table.update_record(&Tag { id: 1, label: None })).unwrap_err();
    assert!(matches!(err, StoreError::NoCells { .. }), "{err:?}");
    assert_eq!(
        table.index::<ByLabel>().unwrap().keys(),
        before,
        "no index row written"
    );
    let kept = block_on(table.get_record(&TagKey { id: 1 })).unwrap();
    assert_eq!(
        kept,
        Some(Tag {
            id: 1,
            label: Some(b"a".to_vec())
        })
    );
    assert!(format!("{table:?}").contains("ByLabel"));
}
