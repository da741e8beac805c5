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
struct Budget(Arc<AtomicI64>);

impl Budget {
    fn new(n: i64) -> Self {
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
struct Crashing<S> {
    inner: S,
    budget: Budget,
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
struct CrashingCheckpoint {
    inner: MemCheckpoint,
    budget: Budget,
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
        main.insert(key, cells);
    }
    (main, index)
}

fn load(store: &MemStore) {
    for (op, cells) in old_rows() {
        block_on(store.put(&op, cells)).unwrap();
    }
}

/// One re-key crashed at mutation `crash_at`, resumed, checked; whether
/// the crash happened (false once `crash_at` is past the last mutation).
fn crash_and_resume(crash_at: i64, in_place: bool, batch: usize) -> bool {
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
    // Resume, without crashes, from the checkpoint the crashed run saved.
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
    .unwrap();
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
        // from: a new table's run rewrites what a crash left unsaved.
        assert_eq!(done.written, u64::from(ROWS), "crash at {crash_at}");
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
        for batch in [7, 60, 500] {
            let mut n = 1;
            while crash_and_resume(n, in_place, batch) {
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
