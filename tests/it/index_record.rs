//! Indexes built from whole records (`Record`, `put_record`,
//! `update_record`, `delete_record`, `query_records`) against brute force
//! on `MemStore`: random sequences of writes, moves and deletes of records
//! whose key, index and cells hold adversarial bytes (0x00 and 0xFF tails,
//! `\n`, regex metacharacters), then random index queries; the records
//! found must be a model's, in index order, stale and missing hits
//! counted. Then each crash point of each write order, and the blocking
//! facade.

use futures::executor::block_on;
use futures::TryStreamExt;
use proptest::prelude::*;
use rowkey::store::{
    Cell, IndexedStore, MemStore, Record, RecordError, Row, Store, StoreError, StoreExt,
};
use rowkey::{IndexOf, RowKey};
use rowkey_fixtures::stores::FaultyStore;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

#[derive(RowKey, Debug, Clone, PartialEq)]
struct DocKey {
    #[max_len(8)]
    site: Vec<u8>,
    id: u8,
}

/// A record: the key's fields and a tag that only its cells hold.
#[derive(Debug, Clone, PartialEq)]
struct Doc {
    site: Vec<u8>,
    id: u8,
    tag: Vec<u8>,
}

/// Docs by tag: built from the record, so it goes stale when the tag
/// changes.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(index_of = Doc)]
struct DocByTag {
    #[max_len(8)]
    tag: Vec<u8>,
    #[max_len(8)]
    site: Vec<u8>,
    id: u8,
}

impl Record for Doc {
    type Key = DocKey;
    fn key(&self) -> DocKey {
        DocKey {
            site: self.site.clone(),
            id: self.id,
        }
    }
    fn cells(&self) -> Vec<Cell> {
        vec![Cell::new("d", "tag", self.tag.clone())]
    }
    fn from_row(row: &Row) -> Result<Self, RecordError> {
        let key: DocKey = row.key_as()?;
        let tag = row.value("d", "tag").ok_or("no d:tag cell")?.to_vec();
        Ok(Doc {
            site: key.site,
            id: key.id,
            tag,
        })
    }
}

fn key_of(d: &Doc) -> Vec<u8> {
    d.key().to_vec().unwrap()
}

fn index_of(d: &Doc) -> Vec<u8> {
    DocByTag::index_key(d).to_vec().unwrap()
}

/// Two stores (main and index) whose reads arrive slowly and whose writes
/// and deletes fail once `budget` (shared by both tables) is spent: the
/// write that fails is the crash point.
fn faulty_pair() -> (FaultyStore, FaultyStore, Arc<AtomicI64>) {
    let budget = Arc::new(AtomicI64::new(i64::MAX));
    let store = |b: &Arc<AtomicI64>| {
        let b = b.clone();
        FaultyStore::new(Arc::new(move |op| {
            (b.fetch_sub(1, Ordering::SeqCst) <= 0)
                .then(|| StoreError::transient(op, "crashed here"))
        }))
    };
    (store(&budget), store(&budget), budget)
}

/// What the two tables hold, kept by hand: main key -> record, index key
/// -> main key.
#[derive(Default)]
struct Model {
    main: BTreeMap<Vec<u8>, Doc>,
    index: BTreeMap<Vec<u8>, Vec<u8>>,
}

#[derive(Debug, Clone)]
enum Op {
    /// `put_record`: may leave the old index row behind.
    Put(Doc),
    /// `update_record`: moves the index row.
    Update(Doc),
    /// `delete_record` of the n-th stored record (as stored).
    Delete(usize),
}

impl Model {
    fn apply(&mut self, op: &Op) {
        match op {
            Op::Put(d) => {
                self.main.insert(key_of(d), d.clone());
                self.index.insert(index_of(d), key_of(d));
            }
            Op::Update(d) => {
                if let Some(old) = self.main.get(&key_of(d)) {
                    self.index.remove(&index_of(old));
                }
                self.main.insert(key_of(d), d.clone());
                self.index.insert(index_of(d), key_of(d));
            }
            Op::Delete(n) => {
                if let Some(d) = self.stored(*n) {
                    self.main.remove(&key_of(&d));
                    self.index.remove(&index_of(&d));
                }
            }
        }
    }
    fn stored(&self, n: usize) -> Option<Doc> {
        let len = self.main.len();
        (len > 0).then(|| self.main.values().nth(n % len).unwrap().clone())
    }
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![Just(0u8), Just(0xFF), Just(b'\n'), Just(b'.'), Just(b'*')],
        0..3,
    )
}

fn doc() -> impl Strategy<Value = Doc> {
    (bytes(), 0u8..3, bytes()).prop_map(|(site, id, tag)| Doc { site, id, tag })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        1 => doc().prop_map(Op::Put),
        3 => doc().prop_map(Op::Update),
        1 => any::<usize>().prop_map(Op::Delete),
    ]
}

async fn run(ops: &[Op], store: &IndexedStore<FaultyStore>, model: &mut Model) {
    for op in ops {
        match op {
            Op::Put(d) => store.put_record::<DocByTag, _>(d).await.unwrap(),
            Op::Update(d) => store.update_record::<DocByTag, _>(d).await.unwrap(),
            Op::Delete(n) => {
                if let Some(d) = model.stored(*n) {
                    store.delete_record::<DocByTag, _>(&d).await.unwrap();
                }
            }
        }
        model.apply(op);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn records_found_through_the_index_are_the_models(
        ops in proptest::collection::vec(op(), 0..40),
        prefix in bytes(),
        exact: bool,
        rev: bool,
        limit in proptest::option::of(0usize..10),
        batch in 1usize..5,
    ) {
        let (main, index, _) = faulty_pair();
        let store = IndexedStore::new(main, index).join_batch(batch);
        let mut model = Model::default();
        block_on(run(&ops, &store, &mut model));

        // The tables hold exactly the model's rows.
        prop_assert_eq!(store.main().inner.keys(), model.main.keys().cloned().collect::<Vec<_>>());
        prop_assert_eq!(store.index().inner.keys(), model.index.keys().cloned().collect::<Vec<_>>());

        let scan = DocByTag::scan();
        let step = &scan.tag;
        let mut plan = if exact {
            step.eq(&prefix[..]).plan().unwrap()
        } else {
            step.starts_with(&prefix[..]).unwrap()
        };
        if rev {
            plan = plan.reversed();
        }
        if let Some(l) = limit {
            plan = plan.with_limit(l);
        }
        // Brute force: the model's index rows the query keeps, in index
        // order, cut at the limit; each kept if its main record still
        // indexes to it.
        let keep = |x: &DocByTag| if exact { x.tag == prefix } else { x.tag.starts_with(&prefix) };
        let mut hits: Vec<(&Vec<u8>, &Vec<u8>)> = model
            .index
            .iter()
            .filter(|(x, _)| keep(&DocByTag::decode(x).unwrap()))
            .collect();
        if rev {
            hits.reverse();
        }
        hits.truncate(limit.unwrap_or(usize::MAX));
        let (mut want, mut missing, mut stale) = (Vec::new(), 0, 0);
        for (x, m) in &hits {
            match model.main.get(*m) {
                None => missing += 1,
                Some(d) if index_of(d) != **x => stale += 1,
                Some(d) => want.push(d.clone()),
            }
        }

        let mut found = store.query_records::<DocByTag, Doc, _>(&plan);
        let got: Vec<Doc> = block_on((&mut found).try_collect()).unwrap();
        prop_assert_eq!(&got, &want);
        let stats = found.stats();
        prop_assert_eq!(stats.hits as usize, hits.len());
        prop_assert_eq!((stats.joined as usize, stats.missing, stats.stale), (want.len(), missing, stale));

        // Without blind puts, no hit is ever stale or missing: the index
        // is exactly the stored records'.
        if !ops.iter().any(|o| matches!(o, Op::Put(_))) {
            prop_assert_eq!((missing, stale), (0, 0));
            let mut all: Vec<&Doc> = model.main.values().filter(|d| keep(&DocByTag::index_key(*d))).collect();
            all.sort_by_key(|d| index_of(d));
            if rev {
                all.reverse();
            }
            all.truncate(limit.unwrap_or(usize::MAX));
            prop_assert_eq!(got.iter().collect::<Vec<_>>(), all);
        }
    }
}

/// The records a reader finds under `tag`, and the stale and missing hits
/// it skipped.
fn read(store: &IndexedStore<FaultyStore>, tag: &[u8]) -> (Vec<Doc>, u64, u64) {
    let plan = DocByTag::scan().tag.eq(tag).plan().unwrap();
    let mut found = store.query_records::<DocByTag, Doc, _>(&plan);
    let docs = block_on((&mut found).try_collect()).unwrap();
    (docs, found.stats().stale, found.stats().missing)
}

fn doc_tagged(tag: &[u8]) -> Doc {
    Doc {
        site: b"a\x00\xFF".to_vec(),
        id: 1,
        tag: tag.to_vec(),
    }
}

/// `update_record` moving a record from tag `old\n` to `new.*`, stopped at
/// each of its three writes: the record is found under exactly one tag at
/// every point, and running it again finishes the move (a stale row may
/// stay, which readers skip).
#[test]
fn an_update_stopped_at_each_write_leaves_the_record_under_one_tag() {
    let (old_tag, new_tag) = (&b"old\n"[..], &b"new.*"[..]);
    let (old, new) = (doc_tagged(old_tag), doc_tagged(new_tag));
    // (writes that land, what the old tag finds + stale, the new tag + stale)
    let cases: [(i64, bool, u64, bool, u64); 4] = [
        (0, true, 0, false, 0), // nothing written
        (1, true, 0, false, 1), // (1) new index row: leads to the old record, stale
        (2, false, 1, true, 0), // (2) main row: the old index row is stale
        (3, false, 0, true, 0), // (3) old index row deleted: done
    ];
    for (writes, in_old, old_stale, in_new, new_stale) in cases {
        let (main, index, budget) = faulty_pair();
        let store = IndexedStore::new(main, index);
        block_on(store.put_record::<DocByTag, _>(&old)).unwrap();
        budget.store(writes, Ordering::SeqCst);
        let result = block_on(store.update_record::<DocByTag, _>(&new));
        assert_eq!(result.is_ok(), writes == 3, "{writes} writes: {result:?}");
        if let Err(e) = result {
            let why = e.backend_source().map(|s| s.to_string());
            assert!(
                e.is_transient() && why.as_deref() == Some("crashed here"),
                "{e:?}"
            );
        }
        budget.store(i64::MAX, Ordering::SeqCst);
        let want = |found: bool, d: &Doc| if found { vec![d.clone()] } else { vec![] };
        assert_eq!(
            read(&store, old_tag),
            (want(in_old, &old), old_stale, 0),
            "after {writes} writes: the old tag"
        );
        assert_eq!(
            read(&store, new_tag),
            (want(in_new, &new), new_stale, 0),
            "after {writes} writes: the new tag"
        );
        // Exactly one tag finds it, and its key reads the matching record.
        assert!(in_old != in_new);
        let row = block_on(store.main().get(&new.key())).unwrap().unwrap();
        assert_eq!(
            Doc::from_row(&row).unwrap(),
            if in_new { new.clone() } else { old.clone() }
        );

        // Running it again finishes the move. Stopped after the main row,
        // the stored record already has the new tag: the old index row is
        // no longer known to be the record's and stays, skipped as stale.
        block_on(store.update_record::<DocByTag, _>(&new)).unwrap();
        let left = u64::from(writes == 2);
        assert_eq!(read(&store, old_tag), (vec![], left, 0));
        assert_eq!(read(&store, new_tag), (vec![new.clone()], 0, 0));
        assert_eq!(store.index().inner.len() as u64, 1 + left);
    }
}

/// `put_record` stopped after the main row: readable by key, not through
/// the index, no hit leads nowhere; a put again heals it. `delete_record`
/// stopped after the main row: the index hit leads nowhere and is counted
/// missing; a delete again removes it.
#[test]
fn a_put_or_delete_stopped_half_way() {
    let (main, index, budget) = faulty_pair();
    let store = IndexedStore::new(main, index);
    let d = doc_tagged(b"t\x00");

    budget.store(1, Ordering::SeqCst);
    assert!(block_on(store.put_record::<DocByTag, _>(&d)).is_err());
    budget.store(i64::MAX, Ordering::SeqCst);
    assert!(block_on(store.main().get(&d.key())).unwrap().is_some());
    assert_eq!(read(&store, b"t\x00"), (vec![], 0, 0));
    block_on(store.put_record::<DocByTag, _>(&d)).unwrap();
    assert_eq!(read(&store, b"t\x00"), (vec![d.clone()], 0, 0));

    budget.store(1, Ordering::SeqCst);
    assert!(block_on(store.delete_record::<DocByTag, _>(&d)).is_err());
    budget.store(i64::MAX, Ordering::SeqCst);
    assert!(block_on(store.main().get(&d.key())).unwrap().is_none());
    assert_eq!(read(&store, b"t\x00"), (vec![], 0, 1));
    block_on(store.delete_record::<DocByTag, _>(&d)).unwrap();
    assert_eq!(read(&store, b"t\x00"), (vec![], 0, 0));
    assert!(store.main().inner.is_empty() && store.index().inner.is_empty());
}

/// A main row that does not read back as its record is an error naming
/// the row, for readers and for `update_record` (which writes nothing).
#[test]
fn a_main_row_that_is_not_a_record_is_an_error() {
    let (main, index, _) = faulty_pair();
    let store = IndexedStore::new(main, index);
    let d = doc_tagged(b"x");
    block_on(store.put_record::<DocByTag, _>(&d)).unwrap();
    // Someone rewrites the row without its tag cell.
    block_on(store.main().delete(&d.key())).unwrap();
    block_on(
        store
            .main()
            .put(&d.key(), vec![Cell::new("d", "other", "1")]),
    )
    .unwrap();
    let plan = DocByTag::scan().tag.eq(&b"x"[..]).plan().unwrap();
    let err = block_on(
        store
            .query_records::<DocByTag, Doc, _>(&plan)
            .try_collect::<Vec<_>>(),
    )
    .unwrap_err();
    let key = d.key().to_key().unwrap();
    assert!(matches!(
        &err,
        StoreError::BadRecord {
            op: "join an index hit",
            ..
        }
    ));
    assert_eq!(
        err.to_string(),
        format!("cannot join an index hit at main row {key}")
    );
    let why = std::error::Error::source(&err).expect("the record's error");
    assert_eq!(why.to_string(), "no d:tag cell");
    let before = store.index().inner.keys();
    let err = block_on(store.update_record::<DocByTag, _>(&doc_tagged(b"y"))).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("cannot update a record at main row {key}")
    );
    let why = std::error::Error::source(&err).expect("the record's error");
    assert_eq!(why.to_string(), "no d:tag cell");
    assert_eq!(store.index().inner.keys(), before, "nothing written");
}

/// `MemStore::delete_rows`: rows gone, absent keys no error, bad keys
/// refused before anything is deleted.
#[test]
fn mem_store_deletes_rows() {
    block_on(async {
        let store = MemStore::new();
        for k in [&b"a"[..], b"b", b"c"] {
            store
                .write_rows(vec![Row::new(k, vec![Cell::new("d", "v", "1")])])
                .await
                .unwrap();
        }
        store
            .delete_rows(vec![b"a".to_vec(), b"zz".to_vec()])
            .await
            .unwrap();
        assert_eq!(store.keys(), [b"b".to_vec(), b"c".to_vec()]);
        let err = store
            .delete_rows(vec![b"b".to_vec(), vec![]])
            .await
            .unwrap_err();
        assert!(matches!(err, StoreError::EmptyKey { op: "delete rows" }));
        let err = store
            .delete_rows(vec![b"b".to_vec(), vec![b'k'; 4097]])
            .await
            .unwrap_err();
        assert!(err
            .to_string()
            .starts_with("cannot delete rows: key of 4097 bytes"));
        assert_eq!(store.len(), 2, "nothing deleted");
    });
}

/// The blocking facade on a plain thread (no async runtime anywhere):
/// key-built and record-built indexes, iterators with their stats.
#[test]
fn blocking_indexed_store() {
    use rowkey::store::blocking::IndexedMemStore;
    let store = IndexedMemStore::new(IndexedStore::new(MemStore::new(), MemStore::new()));
    let docs: Vec<Doc> = (0..5)
        .map(|id| Doc {
            site: b"s\xFF".to_vec(),
            id,
            tag: if id % 2 == 0 {
                b"even".to_vec()
            } else {
                b"odd".to_vec()
            },
        })
        .collect();
    for d in &docs {
        store.put_record::<DocByTag, _>(d).unwrap();
    }
    let even = DocByTag::scan().tag.eq(&b"even"[..]).plan().unwrap();
    let found: Vec<Doc> = store
        .query_records::<DocByTag, _, _>(&even)
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(found, [docs[0].clone(), docs[2].clone(), docs[4].clone()]);

    // Doc 2 turns odd: moved by update_record, and a blind put of doc 4
    // leaves a stale row that the iterator skips and counts.
    let mut two = docs[2].clone();
    two.tag = b"odd".to_vec();
    store.update_record::<DocByTag, _>(&two).unwrap();
    let mut four = docs[4].clone();
    four.tag = b"odd".to_vec();
    store.put_record::<DocByTag, _>(&four).unwrap();
    let mut rows = store.query_records::<DocByTag, Doc, _>(&even);
    let found = rows.by_ref().collect::<Result<Vec<_>, _>>().unwrap();
    assert_eq!(found, [docs[0].clone()]);
    assert_eq!((rows.stats().hits, rows.stats().stale), (2, 1));

    // query_index yields the main rows, unchecked.
    let mut rows = store.query_index(&even);
    let keys: Vec<Vec<u8>> = rows.by_ref().map(|r| r.unwrap().key).collect();
    assert_eq!(keys, [key_of(&docs[0]), key_of(&docs[4])]);
    assert_eq!(rows.stats().joined, 2);

    store.delete_record::<DocByTag, _>(&four).unwrap();
    let odd = DocByTag::scan().tag.eq(&b"odd"[..]).plan().unwrap();
    let found: Vec<u8> = store
        .query_records::<DocByTag, Doc, _>(&odd)
        .map(|d| d.unwrap().id)
        .collect();
    assert_eq!(found, [1, 2, 3]);
}
