//! `DynStore`: a backend picked at run time behind one type. Stores of
//! different types go into one `Vec`; each keeps its own key limit and
//! table; every typed operation, index tables and the blocking layer run
//! on it; a `DynStore` of a `DynStore` is not boxed twice.

use futures::executor::block_on;
use futures::TryStreamExt;
use rowkey::store::blocking::{BlockingStore, ParkingExecutor};
use rowkey::store::{
    Cell, DynStore, IndexedStore, KeyLimit, MemStore, Row, Store, StoreError, StoreExt,
};
use rowkey::{IndexOf, RowKey};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Reading {
    #[salt(buckets = 4, binary)]
    device: u32,
    seq: u32,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(index_of = Reading)]
struct BySeq {
    seq: u32,
    device: u32,
}

/// The stores a configuration could name.
fn open(name: &str) -> Result<DynStore, StoreError> {
    match name {
        "bigtable-sized" => Ok(DynStore::new(MemStore::new())),
        "hbase-sized" => Ok(DynStore::new(MemStore::with_key_limit(KeyLimit::HBASE))),
        other => Err(StoreError::backend(
            "open a store",
            format!("no backend {other:?}"),
        )),
    }
}

#[test]
fn stores_chosen_at_run_time_behave_as_themselves() {
    block_on(async {
        let stores: Vec<DynStore> = ["bigtable-sized", "hbase-sized"]
            .into_iter()
            .map(|name| open(name).unwrap())
            .collect();
        let e = open("carrier pigeon").unwrap_err();
        assert_eq!(
            e.to_string(),
            "store failed to open a store: no backend \"carrier pigeon\""
        );
        assert_eq!(
            e.backend_source().unwrap().to_string(),
            "no backend \"carrier pigeon\""
        );
        let long = Row::new(vec![b'k'; 5000], vec![Cell::new("d", "v", "x")]);
        for (store, limit) in stores.iter().zip([KeyLimit::BIGTABLE, KeyLimit::HBASE]) {
            assert_eq!(store.key_limit(), limit);
            let written = store.write_rows(vec![long.clone()]).await;
            assert_eq!(written.is_ok(), limit == KeyLimit::HBASE, "{written:?}");
            for seq in 0..20 {
                let r = Reading {
                    device: seq % 3,
                    seq,
                };
                store
                    .put(&r, vec![Cell::new("d", "v", [seq as u8])])
                    .await
                    .unwrap();
            }
            let row = store.get(&Reading { device: 1, seq: 7 }).await.unwrap();
            assert_eq!(row.unwrap().value("d", "v"), Some(&[7u8][..]));
            store.delete(&Reading { device: 1, seq: 7 }).await.unwrap();
            assert!(store
                .get(&Reading { device: 1, seq: 7 })
                .await
                .unwrap()
                .is_none());
            // A salted plan merged in logical key order, and its pages.
            let plan = Reading::scan().plan().unwrap();
            let seqs: Vec<u32> = store
                .query(&plan)
                .map_ok(|r| r.key_as::<Reading>().unwrap().seq)
                .try_collect()
                .await
                .unwrap();
            // Logical order: by device, then seq (the salt ignored).
            let mut want: Vec<u32> = (0..20).filter(|s| *s != 7).collect();
            want.sort_by_key(|s| (s % 3, *s));
            assert_eq!(seqs, want);
            let page = store.page(&plan, None, 5).await.unwrap();
            let next = store.page(&plan, page.next.as_ref(), 5).await.unwrap();
            assert_eq!(next.rows[0].key_as::<Reading>().unwrap().seq, want[5]);
        }
        // Each store has its own table; clones share one.
        let clone = stores[0].clone();
        clone
            .put(
                &Reading { device: 9, seq: 99 },
                vec![Cell::new("d", "v", "x")],
            )
            .await
            .unwrap();
        assert!(stores[0]
            .get(&Reading { device: 9, seq: 99 })
            .await
            .unwrap()
            .is_some());
        assert!(stores[1]
            .get(&Reading { device: 9, seq: 99 })
            .await
            .unwrap()
            .is_none());
    });
}

#[test]
fn index_tables_and_the_blocking_layer_take_boxed_stores() {
    let main = open("bigtable-sized").unwrap();
    let index = DynStore::new(MemStore::new());
    let indexed = IndexedStore::new(main, index);
    block_on(async {
        for seq in 0..6 {
            let r = Reading {
                device: seq % 2,
                seq,
            };
            let cells = vec![Cell::new("d", "v", "x")];
            indexed.put_indexed::<BySeq, _>(&r, cells).await.unwrap();
        }
        let plan = BySeq::scan().seq.eq(3).plan().unwrap();
        let rows: Vec<Row> = indexed.query_index(&plan).try_collect().await.unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(
            rows[0].key_as::<Reading>().unwrap(),
            Reading { device: 1, seq: 3 }
        );
        assert_eq!(BySeq::index_key(&Reading { device: 1, seq: 3 }).seq, 3);
    });
    let blocking: BlockingStore<DynStore, ParkingExecutor> =
        BlockingStore::new(DynStore::new(MemStore::new()));
    blocking
        .put(
            &Reading { device: 1, seq: 1 },
            vec![Cell::new("d", "v", "x")],
        )
        .unwrap();
    let plan = Reading::scan().device.eq(1).plan().unwrap();
    assert_eq!(blocking.query(&plan).count(), 1);
}

#[test]
fn a_boxed_store_is_not_boxed_again_and_says_what_it_holds() {
    let inner = MemStore::new();
    let once = DynStore::new(inner.clone());
    let twice = DynStore::new(once.clone());
    assert!(
        twice.downcast_ref::<MemStore>().is_some(),
        "not a DynStore of a DynStore"
    );
    assert!(twice.downcast_ref::<DynStore>().is_none());
    assert_eq!(
        format!("{twice:?}"),
        "DynStore(rowkey_store::mem::MemStore)"
    );
    block_on(twice.put(
        &Reading { device: 2, seq: 2 },
        vec![Cell::new("d", "v", "x")],
    ))
    .unwrap();
    assert_eq!(inner.len(), 1, "the boxed store writes the store it holds");
}
