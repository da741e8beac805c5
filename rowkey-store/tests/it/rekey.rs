//! Re-keying stopped by a crash at every write (a failing store wrapper:
//! the n-th write or delete writes half its rows, then fails; or the
//! n-th checkpoint save fails), then resumed from the checkpoint: the
//! tables end exactly as the brute-force mapping of the old rows says,
//! no row lost, none twice (in place: no old row left), and the index
//! table holds exactly one row per new key, pointing at it.

use futures::executor::block_on;
use rowkey::store::{
    Cell, Checkpoint, IndexedStore, KeyLimit, MemCheckpoint, MemStore, ReadRequest, Rekey,
    RekeyCheckpoint, RekeyError, Row, RowStream, Store, StoreError, StoreExt, TypedMapping,
    ValueMapping, INDEX_FAMILY, INDEX_QUALIFIER,
};
use rowkey::{IndexOf, RowKey};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

mod v1 {
    #[derive(rowkey::RowKey, Debug, Clone, PartialEq)]
    pub struct Op {
        #[salt(buckets = 8)]
        pub uid: u32,
        #[desc]
        pub seq: u64,
    }
}

mod v2 {
    #[derive(rowkey::RowKey, Debug, Clone, PartialEq)]
    pub struct Op {
        #[salt(buckets = 16)]
        pub uid: u32,
        pub seq: u64,
    }
    #[derive(rowkey::RowKey, Debug, Clone, PartialEq)]
    #[rowkey(index_of = Op)]
    pub struct BySeq {
        pub seq: u64,
        pub uid: u32,
    }
}

/// Mutations (writes, deletes, checkpoint saves) left before the crash.
#[derive(Clone)]
pub(crate) struct Budget(Arc<AtomicI64>);

impl Budget {
    pub(crate) fn new(n: i64) -> Self {
        Budget(Arc::new(AtomicI64::new(n)))
    }
    /// Whether this mutation is the one that crashes.
    fn crashes(&self) -> bool {
        self.0.fetch_sub(1, Ordering::SeqCst) == 1
    }
}

/// A store that, at its budget's crash, writes (or deletes) the first half
/// of the batch and fails.
#[derive(Clone)]
pub(crate) struct Crashing<S> {
    pub(crate) inner: S,
    pub(crate) budget: Budget,
}

impl<S: Store> Store for Crashing<S> {
    fn key_limit(&self) -> KeyLimit {
        self.inner.key_limit()
    }
    async fn write_rows(&self, mut rows: Vec<Row>) -> Result<(), StoreError> {
        if self.budget.crashes() {
            rows.truncate(rows.len() / 2);
            if !rows.is_empty() {
                self.inner.write_rows(rows).await?;
            }
            return Err(StoreError::backend("write rows", "crash"));
        }
        self.inner.write_rows(rows).await
    }
    async fn delete_rows(&self, mut keys: Vec<Vec<u8>>) -> Result<(), StoreError> {
        if self.budget.crashes() {
            keys.truncate(keys.len() / 2);
            self.inner.delete_rows(keys).await?;
            return Err(StoreError::backend("delete rows", "crash"));
        }
        self.inner.delete_rows(keys).await
    }
    fn read_rows(&self, request: ReadRequest) -> RowStream {
        self.inner.read_rows(request)
    }
}

/// A checkpoint whose save fails at the budget's crash.
pub(crate) struct CrashingCheckpoint {
    pub(crate) inner: MemCheckpoint,
    pub(crate) budget: Budget,
}

impl Checkpoint for CrashingCheckpoint {
    fn load(&self) -> Result<Option<RekeyCheckpoint>, String> {
        self.inner.load()
    }
    fn save(&self, c: &RekeyCheckpoint) -> Result<(), String> {
        match self.budget.crashes() {
            true => Err("crash while saving".into()),
            false => self.inner.save(c),
        }
    }
}

const ROWS: u32 = 60;

fn old_rows() -> Vec<(v1::Op, Vec<Cell>)> {
    (0..ROWS)
        .map(|i| {
            let op = v1::Op {
                uid: i % 7,
                seq: u64::from(i) * 1013,
            };
            (
                op,
                vec![
                    Cell::new("d", "n", i.to_string()),
                    Cell::new("d", "m", [i as u8, 0xFF]),
                ],
            )
        })
        .collect()
}

fn mapping() -> TypedMapping<v1::Op, v2::Op, fn(v1::Op) -> v2::Op> {
    TypedMapping::new(
        (|o: v1::Op| v2::Op {
            uid: o.uid,
            seq: o.seq,
        }) as fn(v1::Op) -> v2::Op,
    )
    .with_index::<v2::BySeq>()
}

/// A table's rows: key to cells.
type Rows = BTreeMap<Vec<u8>, Vec<Cell>>;

/// Every row of a MemStore.
fn dump(s: &MemStore) -> Rows {
    let all = ReadRequest::new([rowkey::store::KeyRange::new(Vec::new(), None)]);
    let rows: Vec<Row> = block_on(futures::TryStreamExt::try_collect(s.read_rows(all))).unwrap();
    rows.into_iter().map(|r| (r.key, r.cells)).collect()
}

/// The tables a correct re-key leaves: the new rows, and the index rows.
fn expected() -> (Rows, Rows) {
    let (mut main, mut index) = (BTreeMap::new(), BTreeMap::new());
    for (old, cells) in old_rows() {
        let new = v2::Op {
            uid: old.uid,
            seq: old.seq,
        };
        let key = new.to_vec().unwrap();
        let ix = v2::BySeq::index_key(&new).to_vec().unwrap();
        index.insert(ix, vec![Cell::new(INDEX_FAMILY, INDEX_QUALIFIER, &key)]);
        main.insert(key, in_stored_order(cells));
    }
    (main, index)
}

/// Cells as a store returns them: by family, then qualifier.
fn in_stored_order(mut cells: Vec<Cell>) -> Vec<Cell> {
    cells.sort_by(|a, b| (&a.family, &a.qualifier).cmp(&(&b.family, &b.qualifier)));
    cells
}

fn load(store: &MemStore) {
    for (op, cells) in old_rows() {
        block_on(store.put(&op, cells)).unwrap();
    }
}

/// One re-key crashed at mutation `crash_at`, resumed (in batches of
/// `resume_batch`), checked; whether the crash happened (false once
/// `crash_at` is past the last mutation).
fn crash_and_resume(crash_at: i64, in_place: bool, batch: usize, resume_batch: usize) -> bool {
    let budget = Budget::new(crash_at);
    let (source, target, index) = (MemStore::new(), MemStore::new(), MemStore::new());
    load(&source);
    let saved = MemCheckpoint::default();
    let m = mapping();
    let rekey = Rekey::new(&m).batch(batch);
    let crashing = |s: &MemStore| Crashing {
        inner: s.clone(),
        budget: budget.clone(),
    };
    let ckpt = CrashingCheckpoint {
        inner: saved.clone(),
        budget: budget.clone(),
    };
    let first = block_on(async {
        match in_place {
            true => {
                rekey
                    .in_place(&crashing(&source), Some(&crashing(&index)), &ckpt, |_| {})
                    .await
            }
            false => {
                let (t, i) = (crashing(&target), crashing(&index));
                rekey
                    .to_table_with_index(&source, &t, &i, &ckpt, |_| {})
                    .await
            }
        }
    });
    let crashed = first.is_err();
    if let Err(e) = &first {
        assert!(
            matches!(e, RekeyError::Store(_) | RekeyError::Checkpoint(_)),
            "{e}"
        );
    }
    // Resume, without crashes, from the checkpoint the crashed run saved:
    // the rows it wrote of its last batch are no collision.
    let rekey = Rekey::new(&m).batch(resume_batch);
    let done = block_on(async {
        match in_place {
            true => rekey.in_place(&source, Some(&index), &saved, |_| {}).await,
            false => {
                rekey
                    .to_table_with_index(&source, &target, &index, &saved, |_| {})
                    .await
            }
        }
    })
    .unwrap_or_else(|e| panic!("crash at {crash_at}, in place {in_place}, batch {batch}: {e}"));
    let (want_main, want_index) = expected();
    let main = if in_place { &source } else { &target };
    assert_eq!(
        dump(main),
        want_main,
        "crash at {crash_at}, in place {in_place}, batch {batch}"
    );
    assert_eq!(
        dump(&index),
        want_index,
        "crash at {crash_at}, in place {in_place}, batch {batch}"
    );
    if !in_place {
        // Each run counts what it wrote since the checkpoint it resumed
        // from: a new table's run rewrites what a crash left unsaved, and
        // counts it once.
        assert_eq!(
            (done.read, done.written, done.indexed, done.writing),
            (u64::from(ROWS), u64::from(ROWS), u64::from(ROWS), None),
            "crash at {crash_at}, batch {batch} then {resume_batch}"
        );
        assert_eq!(
            dump(&source).len(),
            ROWS as usize,
            "the source is untouched"
        );
        let v = block_on(rekey.verify_table(&source, &target, 3)).unwrap();
        assert!(v.is_ok(), "{v:?}");
    } else {
        // In place, old rows deleted before a crash are not read again.
        assert!(done.written <= u64::from(ROWS), "crash at {crash_at}");
        let v = block_on(rekey.verify_in_place(&source, u64::from(ROWS))).unwrap();
        assert!(v.is_ok(), "{v:?}");
    }
    crashed
}

#[test]
fn a_crash_at_every_write_loses_and_duplicates_nothing() {
    for in_place in [false, true] {
        // A resume in smaller batches leaves rows the stopped run wrote
        // to its second batch and later: still its own, no collision.
        for (batch, resume_batch) in [(7, 7), (60, 60), (500, 500), (60, 7), (500, 1), (7, 60)] {
            let mut n = 1;
            while crash_and_resume(n, in_place, batch, resume_batch) {
                n += 1;
            }
            assert!(n > 3, "the run made {n} mutations");
        }
    }
}

#[test]
fn a_dropped_desc_reads_the_same_values_into_a_new_table_and_not_in_place() {
    mod flat {
        #[derive(rowkey::RowKey)]
        pub struct Op {
            #[salt(buckets = 8)]
            pub uid: u32,
            pub seq: u64,
        }
    }
    let (source, target) = (MemStore::new(), MemStore::new());
    load(&source);
    let m = ValueMapping::same_values(v1::Op::layout(), flat::Op::layout());
    let rekey = Rekey::new(&m).batch(16);
    let dry = block_on(rekey.dry_run(true).to_table(
        &source,
        &target,
        &MemCheckpoint::default(),
        |_| {},
    ))
    .unwrap();
    assert_eq!((dry.read, dry.written), (u64::from(ROWS), u64::from(ROWS)));
    assert!(target.is_empty(), "a dry run writes nothing");
    block_on(rekey.to_table(&source, &target, &MemCheckpoint::default(), |_| {})).unwrap();
    let row = block_on(target.get(&flat::Op {
        uid: 3,
        seq: 3 * 1013,
    }))
    .unwrap();
    assert_eq!(row.unwrap().value("d", "n"), Some(&b"3"[..]));
    // In place, every new key reads as an old one too.
    let e = block_on(rekey.in_place(
        &source,
        None::<&MemStore>,
        &MemCheckpoint::default(),
        |_| {},
    ));
    let e = e.unwrap_err();
    assert!(matches!(e, RekeyError::Ambiguous { .. }), "{e}");
    assert!(e.to_string().contains("re-key into a new table"), "{e}");
    let _ = IndexedStore::new(source, target);
}

/// The mapping: 100 old rows onto 50 new keys (`seq / 2`).
fn halving() -> TypedMapping<v1::Op, v2::Op, fn(v1::Op) -> v2::Op> {
    TypedMapping::new(
        (|o: v1::Op| v2::Op {
            uid: o.uid,
            seq: o.seq / 2,
        }) as fn(v1::Op) -> v2::Op,
    )
}

fn old_key(seq: u64) -> Vec<u8> {
    v1::Op { uid: 3, seq }.to_vec().unwrap()
}

/// 100 rows of one user, seq 0..100 (read from seq 99 down: `#[desc]`).
fn hundred() -> MemStore {
    let store = MemStore::new();
    for seq in 0..100 {
        let op = v1::Op { uid: 3, seq };
        block_on(store.put(&op, vec![Cell::new("d", "n", seq.to_string())])).unwrap();
    }
    store
}

/// Every row of `table` holds the cells of exactly one old row, the
/// first (in source order) that maps to its key; `moved` of them.
fn assert_not_merged(table: &Rows, moved: usize) {
    let first: BTreeMap<Vec<u8>, u64> = (0..50)
        .map(|s| (v2::Op { uid: 3, seq: s }.to_vec().unwrap(), s * 2 + 1))
        .collect();
    let new: Vec<(&Vec<u8>, &Vec<Cell>)> = table
        .iter()
        .filter(|(k, _)| !rowkey::store::RekeyMapping::is_old(&halving(), k))
        .collect();
    assert_eq!(new.len(), moved, "{new:?}");
    for (key, cells) in new {
        let seq = first[key];
        assert_eq!(cells, &vec![Cell::new("d", "n", seq.to_string())]);
    }
}

/// At batch size 1, the colliding rows went out in two batches and the
/// second overwrote the first: `Ok`, "written 100", 50 rows. Now every
/// batch size stops at the first collision, naming the new key and both
/// old keys, with nothing merged.
#[test]
fn rows_mapping_to_one_key_stop_the_rekey_at_any_batch_size() {
    let m = halving();
    let want_key = v2::Op { uid: 3, seq: 49 }.to_vec().unwrap();
    for batch in [1, 7, 100] {
        for dry_run in [false, true] {
            let (source, target) = (hundred(), MemStore::new());
            let rekey = Rekey::new(&m).batch(batch).dry_run(dry_run);
            let saved = MemCheckpoint::default();
            let e = block_on(rekey.to_table(&source, &target, &saved, |_| {})).unwrap_err();
            let RekeyError::Collision { key, old, earlier } = &e else {
                panic!("batch {batch}: {e}");
            };
            // Seq 99 is read first and maps to 49; seq 98 collides.
            assert_eq!(
                (key, old, earlier.as_ref()),
                (&want_key, &old_key(98), Some(&old_key(99))),
                "batch {batch}, dry run {dry_run}"
            );
            let text = e.to_string();
            for k in [&want_key, &old_key(98), &old_key(99)] {
                let shown = rowkey::KeyDisplay(k).to_string();
                assert!(text.contains(&shown), "{text} names {shown}");
            }
            assert!(text.contains("both map to the new key"), "{text}");
            // A batch of one wrote seq 99's row; nothing else, and it was
            // not saved as written.
            let moved = usize::from(batch == 1 && !dry_run);
            assert_not_merged(&dump(&target), moved);
            let ckpt = saved.load().unwrap().unwrap_or_default();
            assert_eq!(ckpt.written, moved as u64, "batch {batch}");
        }
    }
}

/// In place, the earlier row is gone once moved, so across batches the
/// error names the new key and the later old key; in one batch, both.
#[test]
fn rows_mapping_to_one_key_stop_a_rekey_in_place() {
    let m = halving();
    let want_key = v2::Op { uid: 3, seq: 49 }.to_vec().unwrap();
    for batch in [1, 7, 100] {
        let table = hundred();
        let rekey = Rekey::new(&m).batch(batch);
        let e =
            block_on(rekey.in_place(&table, None::<&MemStore>, &MemCheckpoint::default(), |_| {}))
                .unwrap_err();
        let RekeyError::Collision { key, old, earlier } = &e else {
            panic!("batch {batch}: {e}");
        };
        let want_earlier = (batch > 1).then(|| old_key(99));
        assert_eq!(
            (key, old, earlier),
            (&want_key, &old_key(98), &want_earlier),
            "batch {batch}"
        );
        if batch == 1 {
            assert!(e.to_string().contains("is in the target already"), "{e}");
        }
        let rows = dump(&table);
        assert_not_merged(&rows, usize::from(batch == 1));
        assert_eq!(
            rows.len(),
            100,
            "batch {batch}: one row moved at most, none lost"
        );
    }
}

/// A target that holds a new key before the re-key: a collision, that no
/// source row explains.
#[test]
fn a_key_already_in_the_target_is_a_collision() {
    let (source, target) = (MemStore::new(), MemStore::new());
    load(&source);
    let (rows, _) = expected();
    let (key, _) = rows.iter().nth(10).unwrap();
    block_on(target.write_rows(vec![Row::new(key.clone(), vec![Cell::new("d", "x", "y")])]))
        .unwrap();
    let m = mapping();
    let e = block_on(Rekey::new(&m).batch(7).to_table(
        &source,
        &target,
        &MemCheckpoint::default(),
        |_| {},
    ))
    .unwrap_err();
    assert!(
        matches!(&e, RekeyError::Collision { key: k, earlier: None, .. } if k == key),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("a row that was there before the re-key"),
        "{e}"
    );
}

/// A stopped run's checkpoint, saved before its batch (`writing`), and
/// half the batch in the target: the resumed run takes those rows for its
/// own and counts each row once.
#[test]
fn a_partly_written_batch_is_no_collision_on_resume() {
    let (source, target) = (MemStore::new(), MemStore::new());
    load(&source);
    let m = mapping();
    let rekey = Rekey::new(&m).batch(20);
    // The first 20 source rows done; 16 of the next 20 written.
    let all: Vec<Row> = dump(&source)
        .into_iter()
        .map(|(k, c)| Row::new(k, c))
        .collect();
    for row in &all[..36] {
        let new = rowkey::store::RekeyMapping::map(&m, row).unwrap().unwrap();
        block_on(target.write_rows(vec![new])).unwrap();
    }
    let saved = MemCheckpoint::default();
    saved
        .save(&RekeyCheckpoint {
            last_key: Some(all[19].key.clone()),
            read: 20,
            written: 20,
            writing: Some(all[39].key.clone()),
            ..Default::default()
        })
        .unwrap();
    // The resumed run, in smaller batches, stops too, in its second
    // batch: the next run still takes the first run's rows for its own.
    let crashing = Crashing {
        inner: target.clone(),
        budget: Budget::new(2),
    };
    let small = Rekey::new(&m).batch(5);
    let e = block_on(small.to_table(&source, &crashing, &saved, |_| {})).unwrap_err();
    assert!(matches!(e, RekeyError::Store(_)), "{e}");
    let done = block_on(rekey.to_table(&source, &target, &saved, |_| {})).unwrap();
    assert_eq!(
        (done.read, done.written),
        (u64::from(ROWS), u64::from(ROWS))
    );
    assert_eq!(dump(&target), expected().0);
    // The same rows, but the checkpoint says nothing was being written:
    // rows in the target the re-key did not account for are collisions.
    let target = MemStore::new();
    for row in &all[..30] {
        let new = rowkey::store::RekeyMapping::map(&m, row).unwrap().unwrap();
        block_on(target.write_rows(vec![new])).unwrap();
    }
    let saved = MemCheckpoint::default();
    saved
        .save(&RekeyCheckpoint {
            last_key: Some(all[19].key.clone()),
            read: 20,
            written: 20,
            ..Default::default()
        })
        .unwrap();
    let e = block_on(rekey.to_table(&source, &target, &saved, |_| {})).unwrap_err();
    assert!(matches!(e, RekeyError::Collision { .. }), "{e}");
}

/// Old keys `o i`, new keys `n f(i)`: any function of the row's number.
struct TableMapping(Vec<u8>);

impl rowkey::store::RekeyMapping for TableMapping {
    fn is_old(&self, key: &[u8]) -> bool {
        key.len() == 2 && key[0] == b'o'
    }
    fn is_new(&self, key: &[u8]) -> bool {
        key.len() == 2 && key[0] == b'n'
    }
    fn map(&self, old: &Row) -> Result<Option<Row>, String> {
        let to = self.0[usize::from(old.key[1])];
        Ok(Some(Row::new(vec![b'n', to], old.cells.clone())))
    }
}

proptest::proptest! {
    /// Any mapping, any batch size, a new table or in place, against the
    /// brute force: a collision iff two old keys map to one new key (the
    /// first such pair in key order, named), and then nothing merged;
    /// otherwise the table is the mapping of the old rows.
    #[test]
    fn collisions_match_the_brute_force(
        map in proptest::collection::vec(0u8..40, 0..30),
        batch in 1usize..12,
        in_place: bool,
    ) {
        let source = MemStore::new();
        let cells = |i: usize| vec![Cell::new("d", "v", i.to_string())];
        let rows: Vec<Row> = (0..map.len()).map(|i| Row::new(vec![b'o', i as u8], cells(i))).collect();
        if !rows.is_empty() {
            block_on(source.write_rows(rows)).unwrap();
        }
        let target = if in_place { source.clone() } else { MemStore::new() };
        let m = TableMapping(map.clone());
        let rekey = Rekey::new(&m).batch(batch);
        let ckpt = MemCheckpoint::default();
        let got = block_on(async {
            match in_place {
                true => rekey.in_place(&source, None::<&MemStore>, &ckpt, |_| {}).await,
                false => rekey.to_table(&source, &target, &ckpt, |_| {}).await,
            }
        });
        // Brute force: the first row whose new key an earlier row has.
        let first_of = |i: usize| (0..i).find(|&j| map[j] == map[i]);
        let collision = (0..map.len()).find_map(|i| first_of(i).map(|j| (i, j)));
        let moved = collision.map_or(map.len(), |(i, _)| i / batch * batch);
        let mut want: Rows = (0..moved).map(|k| (vec![b'n', map[k]], cells(k))).collect();
        if in_place {
            want.extend((moved..map.len()).map(|k| (vec![b'o', k as u8], cells(k))));
        }
        match (collision, got) {
            (None, Ok(done)) => proptest::prop_assert_eq!(done.written, map.len() as u64),
            (Some((i, j)), Err(RekeyError::Collision { key, old, earlier })) => {
                proptest::prop_assert_eq!(key, vec![b'n', map[i]]);
                proptest::prop_assert_eq!(old, vec![b'o', i as u8]);
                // In place, an earlier batch's row is deleted: unnamed.
                let named = !in_place || j >= moved;
                proptest::prop_assert_eq!(earlier, named.then(|| vec![b'o', j as u8]));
            }
            (want, got) => proptest::prop_assert!(false, "want {want:?}, got {got:?}"),
        }
        proptest::prop_assert_eq!(dump(&target), want);
    }
}
