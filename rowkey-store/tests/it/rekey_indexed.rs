//! `Rekey::to_indexed_table`: a table of trips re-keyed (12 salt buckets
//! to 24, `#[desc_ts]` dropped) into an `IndexedTable` with three indexes,
//! one of the key, one of a cell, one sparse, in one call. Stopped by a
//! crash at every write and checkpoint save, then resumed: the main table
//! and every index table end exactly as the brute-force mapping of the old
//! rows says, verified, and the new layouts recorded. The layout guard
//! refuses a target recorded with another layout before anything is
//! written; an index without a table name stops it before it starts; a
//! failed check records nothing.

use super::rekey::{Budget, Crashing, CrashingCheckpoint};
use futures::executor::block_on;
use proptest::prelude::*;
use rowkey::store::{
    Cell, IndexedTable, LayoutRegistry, MemCheckpoint, MemStore, Record, RecordError, Rekey,
    RekeyError, RekeyTables, Row, Store, StoreError, TypedMapping, INDEX_FAMILY, INDEX_QUALIFIER,
};
use rowkey::{RowKey, SparseIndexOf};
use std::collections::BTreeMap;

mod v1 {
    #[derive(rowkey::RowKey, Debug, Clone, PartialEq)]
    pub struct TripKey {
        #[salt(buckets = 12)]
        pub city: u16,
        #[salt]
        pub driver: u32,
        #[desc_ts]
        pub started: i64,
    }
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct TripKey {
    #[salt(buckets = 24)]
    city: u16,
    #[salt]
    driver: u32,
    started: i64,
}

#[derive(Debug, Clone, PartialEq)]
struct Trip {
    city: u16,
    driver: u32,
    started: i64,
    rider: u32,
    disputed: bool,
}

impl Record for Trip {
    type Key = TripKey;
    fn key(&self) -> TripKey {
        TripKey {
            city: self.city,
            driver: self.driver,
            started: self.started,
        }
    }
    fn cells(&self) -> Vec<Cell> {
        vec![
            Cell::new("d", "rider", self.rider.to_be_bytes()),
            Cell::new("d", "disputed", [u8::from(self.disputed)]),
        ]
    }
    fn from_row(row: &Row) -> Result<Self, RecordError> {
        let k: TripKey = row.key_as()?;
        let rider = u32::from_be_bytes(
            row.value("d", "rider")
                .ok_or("no rider")?
                .try_into()
                .map_err(RecordError::other)?,
        );
        let disputed = row.value("d", "disputed").ok_or("no disputed")? == [1];
        Ok(Trip {
            city: k.city,
            driver: k.driver,
            started: k.started,
            rider,
            disputed,
        })
    }
}

/// Of the key: a driver's trips by start.
#[derive(RowKey, Debug)]
#[rowkey(index_of = Trip)]
struct ByDriver {
    driver: u32,
    started: i64,
    city: u16,
}

/// Of a cell: a rider's trips.
#[derive(RowKey, Debug)]
#[rowkey(index_of = Trip)]
struct ByRider {
    rider: u32,
    started: i64,
    city: u16,
    driver: u32,
}

/// Sparse: disputed trips only.
#[derive(RowKey, Debug)]
struct Disputed {
    city: u16,
    started: i64,
    driver: u32,
}

impl SparseIndexOf<Trip> for Disputed {
    fn sparse_index_key(t: &Trip) -> Option<Self> {
        t.disputed.then_some(Disputed {
            city: t.city,
            started: t.started,
            driver: t.driver,
        })
    }
}

type Rows = BTreeMap<Vec<u8>, Vec<Cell>>;
/// An index table's rows: index key to main key.
type IndexRows = BTreeMap<Vec<u8>, Vec<u8>>;

fn trips(n: u32) -> Vec<Trip> {
    (0..n)
        .map(|i| Trip {
            city: (i % 3) as u16,
            driver: i % 5,
            started: 1_000 + i64::from(i) * 7,
            rider: i % 4,
            disputed: i % 3 == 1,
        })
        .collect()
}

/// The old table: each trip under its v1 key, with its cells.
fn old_table(trips: &[Trip]) -> MemStore {
    let store = MemStore::new();
    let rows = trips
        .iter()
        .map(|t| {
            let key = v1::TripKey {
                city: t.city,
                driver: t.driver,
                started: t.started,
            };
            Row::new(key.to_vec().unwrap(), t.cells())
        })
        .collect();
    block_on(store.write_rows(rows)).unwrap();
    store
}

fn mapping() -> TypedMapping<v1::TripKey, TripKey, fn(v1::TripKey) -> TripKey> {
    TypedMapping::new(|o: v1::TripKey| TripKey {
        city: o.city,
        driver: o.driver,
        started: o.started,
    })
}

fn dump<S: Store>(s: &S) -> Rows {
    let rows: Vec<Row> = block_on(futures::TryStreamExt::try_collect(s.read_rows(
        rowkey::store::ReadRequest::new([rowkey::store::KeyRange::new(Vec::new(), None)]),
    )))
    .unwrap();
    rows.into_iter().map(|r| (r.key, r.cells)).collect()
}

/// Brute force: the main rows, and each index's rows (key -> main key).
fn expected(trips: &[Trip]) -> (Rows, [IndexRows; 3]) {
    let main = trips
        .iter()
        .map(|t| {
            let mut cells = t.cells();
            // As a store returns them: by family, then qualifier.
            cells.sort_by(|a, b| (&a.family, &a.qualifier).cmp(&(&b.family, &b.qualifier)));
            (t.key().to_vec().unwrap(), cells)
        })
        .collect();
    let mut idx: [IndexRows; 3] = Default::default();
    for t in trips {
        let k = t.key().to_vec().unwrap();
        let by_driver = ByDriver {
            driver: t.driver,
            started: t.started,
            city: t.city,
        };
        idx[0].insert(by_driver.to_vec().unwrap(), k.clone());
        let by_rider = ByRider {
            rider: t.rider,
            started: t.started,
            city: t.city,
            driver: t.driver,
        };
        idx[1].insert(by_rider.to_vec().unwrap(), k.clone());
        if let Some(d) = Disputed::sparse_index_key(t) {
            idx[2].insert(d.to_vec().unwrap(), k);
        }
    }
    (main, idx)
}

fn index_dump<S: Store>(s: &S) -> IndexRows {
    dump(s)
        .into_iter()
        .map(|(k, cells)| {
            let c = cells
                .iter()
                .find(|c| c.family == INDEX_FAMILY && c.qualifier == INDEX_QUALIFIER)
                .expect("an index cell");
            (k, c.value.clone())
        })
        .collect()
}

fn tables() -> RekeyTables {
    RekeyTables::new("trips_v2")
        .index::<ByDriver>("trips_by_driver")
        .index::<ByRider>("trips_by_rider")
        .index::<Disputed>("trips_disputed")
}

fn indexed<S: Store>(main: S, idx: [S; 3]) -> IndexedTable<Trip, S, S> {
    let [d, r, s] = idx;
    IndexedTable::new(main)
        .with_index::<ByDriver>(d)
        .with_index::<ByRider>(r)
        .with_index::<Disputed>(s)
}

/// A re-key crashed at mutation `crash_at` (if it gets there), then
/// resumed: whether it crashed.
fn crash_and_resume(crash_at: i64, batch: usize, resume_batch: usize) -> bool {
    let all = trips(40);
    let source = old_table(&all);
    let (main, idx) = (
        MemStore::new(),
        [MemStore::new(), MemStore::new(), MemStore::new()],
    );
    let registry = LayoutRegistry::new(MemStore::new());
    let saved = MemCheckpoint::default();
    let m = mapping();
    let budget = Budget::new(crash_at);
    let crashing = |s: &MemStore| Crashing {
        inner: s.clone(),
        budget: budget.clone(),
    };
    let target = indexed(crashing(&main), idx.each_ref().map(crashing));
    let ckpt = CrashingCheckpoint {
        inner: saved.clone(),
        budget: budget.clone(),
    };
    let rekey = Rekey::new(&m).batch(batch).verify_every(3);
    let first =
        block_on(rekey.to_indexed_table(&source, &target, &registry, &tables(), &ckpt, |_| {}));
    let crashed = first.is_err();
    if let Err(e) = &first {
        assert!(
            matches!(e, RekeyError::Store(_) | RekeyError::Checkpoint(_)),
            "{e}"
        );
        // Nothing recorded before the re-key is verified.
        assert!(block_on(registry.recorded("trips_v2")).unwrap().is_none());
    }
    let target = indexed(main.clone(), idx.clone());
    let done = block_on(Rekey::new(&m).batch(resume_batch).to_indexed_table(
        &source,
        &target,
        &registry,
        &tables(),
        &saved,
        |_| {},
    ))
    .unwrap_or_else(|e| panic!("crash at {crash_at}, batch {batch}: {e}"));
    let (want_main, want_idx) = expected(&all);
    let what = format!("crash at {crash_at}, batch {batch} then {resume_batch}");
    assert_eq!(dump(&main), want_main, "{what}");
    for (i, want) in want_idx.iter().enumerate() {
        assert_eq!(&index_dump(&idx[i]), want, "index {i}: {what}");
    }
    let indexed_rows: usize = want_idx.iter().map(BTreeMap::len).sum();
    assert_eq!(
        (done.counts.read, done.counts.written, done.counts.indexed),
        (40, 40, indexed_rows as u64),
        "{what}"
    );
    assert!(done.verification.is_ok(), "{what}: {:?}", done.verification);
    assert_eq!(done.verification.index_rows_found, indexed_rows as u64);
    for (table, layout) in [
        ("trips_v2", TripKey::layout()),
        ("trips_by_driver", ByDriver::layout()),
        ("trips_by_rider", ByRider::layout()),
        ("trips_disputed", Disputed::layout()),
    ] {
        let recorded = block_on(registry.recorded(table))
            .unwrap()
            .expect("recorded");
        assert_eq!(recorded.layout, layout, "{table}: {what}");
    }
    crashed
}

#[test]
fn a_crash_at_every_write_rebuilds_every_index_exactly() {
    for (batch, resume_batch) in [(7, 7), (40, 40), (500, 3), (3, 500)] {
        let mut n = 1;
        while crash_and_resume(n, batch, resume_batch) {
            n += 1;
        }
        assert!(n > 5, "the run made {n} mutations");
    }
}

#[test]
fn the_layout_guard_refuses_a_target_of_another_layout_before_writing() {
    let source = old_table(&trips(10));
    let (main, idx) = (
        MemStore::new(),
        [MemStore::new(), MemStore::new(), MemStore::new()],
    );
    let registry = LayoutRegistry::new(MemStore::new());
    // The rider index's table holds keys of another layout.
    block_on(registry.record("trips_by_rider", ByDriver::layout())).unwrap();
    let m = mapping();
    let target = indexed(main.clone(), idx.clone());
    let err = block_on(Rekey::new(&m).to_indexed_table(
        &source,
        &target,
        &registry,
        &tables(),
        &MemCheckpoint::default(),
        |_| {},
    ))
    .unwrap_err();
    match &err {
        RekeyError::Store(StoreError::LayoutMismatch { table, .. }) => {
            assert_eq!(table, "trips_by_rider")
        }
        other => panic!("{other}"),
    }
    assert!(dump(&main).is_empty() && idx.iter().all(|i| dump(i).is_empty()));
    assert!(block_on(registry.recorded("trips_v2")).unwrap().is_none());
}

#[test]
fn an_unnamed_index_stops_the_rekey_before_it_starts() {
    let source = old_table(&trips(10));
    let main = MemStore::new();
    let target = indexed(
        main.clone(),
        [MemStore::new(), MemStore::new(), MemStore::new()],
    );
    let registry = LayoutRegistry::new(MemStore::new());
    let m = mapping();
    let partial = RekeyTables::new("trips_v2").index::<ByDriver>("by_driver");
    let err = block_on(Rekey::new(&m).to_indexed_table(
        &source,
        &target,
        &registry,
        &partial,
        &MemCheckpoint::default(),
        |_| {},
    ))
    .unwrap_err();
    assert!(
        matches!(err, RekeyError::UnnamedIndex { index: "ByRider" }),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "re-key not started: the index keyed by `ByRider` has no table name; name it with \
         `RekeyTables::index::<ByRider>(\"..\")`"
    );
    assert!(dump(&main).is_empty());
}

#[test]
fn a_failed_check_records_no_layout() {
    let source = old_table(&trips(12));
    let idx = [MemStore::new(), MemStore::new(), MemStore::new()];
    // A stray row in the sparse index: one more than the records have.
    block_on(idx[2].write_rows(vec![Row::new(
        &b"stray"[..],
        vec![Cell::new(INDEX_FAMILY, INDEX_QUALIFIER, "nowhere")],
    )]))
    .unwrap();
    let target = indexed(MemStore::new(), idx);
    let registry = LayoutRegistry::new(MemStore::new());
    let m = mapping();
    let err = block_on(Rekey::new(&m).to_indexed_table(
        &source,
        &target,
        &registry,
        &tables(),
        &MemCheckpoint::default(),
        |_| {},
    ))
    .unwrap_err();
    let RekeyError::NotVerified(v) = &err else {
        panic!("{err}")
    };
    assert_eq!(v.index_rows_found, v.index_rows_expected + 1);
    assert!(err
        .to_string()
        .starts_with("re-key done but not verified, no layout recorded"));
    assert!(block_on(registry.recorded("trips_v2")).unwrap().is_none());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random trips, any batch: the brute force, and every index queried
    /// through the table finds its records.
    #[test]
    fn any_trips_any_batch(
        rows in prop::collection::vec((0u16..4, 0u32..6, 0i64..1_000, 0u32..5, any::<bool>()), 0..60),
        batch in 1usize..70,
    ) {
        let mut seen = std::collections::BTreeSet::new();
        let all: Vec<Trip> = rows
            .into_iter()
            .filter(|r| seen.insert((r.0, r.1, r.2)))
            .map(|(city, driver, started, rider, disputed)| Trip { city, driver, started, rider, disputed })
            .collect();
        let source = old_table(&all);
        let (main, idx) = (MemStore::new(), [MemStore::new(), MemStore::new(), MemStore::new()]);
        let target = indexed(main.clone(), idx.clone());
        let registry = LayoutRegistry::new(MemStore::new());
        let m = mapping();
        let done = block_on(Rekey::new(&m).batch(batch).verify_every(1).to_indexed_table(
            &source, &target, &registry, &tables(), &MemCheckpoint::default(), |_| {},
        )).unwrap();
        prop_assert!(done.verification.is_ok());
        let (want_main, want_idx) = expected(&all);
        prop_assert_eq!(dump(&main), want_main);
        for (i, want) in want_idx.iter().enumerate() {
            prop_assert_eq!(&index_dump(&idx[i]), want);
        }
        // Through the table: every disputed trip of city 1.
        let plan = Disputed::scan().city.eq(1).plan().unwrap();
        let found: Vec<Trip> = block_on(futures::TryStreamExt::try_collect(target.query::<Disputed, _>(&plan))).unwrap();
        let mut want: Vec<&Trip> = all.iter().filter(|t| t.city == 1 && t.disputed).collect();
        want.sort_by_key(|t| (t.started, t.driver));
        prop_assert_eq!(found.iter().collect::<Vec<_>>(), want);
    }
}
