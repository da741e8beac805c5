//! The new user's trial (issue 23) end to end: the IoT reading record
//! (`rowkey_fixtures::layouts::IotReading`: a salted padded device, an enum
//! metric, a `#[desc_ts]` `DateTime<Utc>`, an `f64` value and a `u16`
//! site) with `#[derive(Record)]` in place of the hand-written impl, and
//! its site index. Written with `put_record`, read with `get_record` and
//! `query_records` (against brute force), moved with `update_record`, a
//! row with other columns read into the record, a corrupt cell named in
//! the error; on `MemStore`, with the `bigtable` feature on the Cloud
//! Bigtable emulator, and with the `hbase` feature on a real HBase.

use futures::TryStreamExt;
use rowkey::store::cell::CellError;
use rowkey::store::{
    Cell, Columns, IndexedStore, MemStore, Record, RecordError, Store, StoreError, StoreExt,
};
use rowkey::{IndexOf, RowKey};
use rowkey_fixtures::layouts::{IotReading, IotReadingBySite, ReadingKey};

const ROWS: usize = 400;

/// The readings at `site`, as the index orders them.
fn brute(readings: &[IotReading], site: u16) -> Vec<IotReading> {
    let mut want: Vec<IotReading> = readings
        .iter()
        .filter(|r| r.site == site)
        .cloned()
        .collect();
    want.sort_by_key(|r| IotReadingBySite::index_key(r).to_vec().unwrap());
    want
}

async fn trial<S: Store>(main: S, index: S) {
    assert_eq!(
        IotReading::columns(),
        Some(Columns::new([("d", "site"), ("d", "value")]))
    );
    let store = IndexedStore::new(main, index);
    let mut readings = IotReading::rows(ROWS);
    readings[3].value = f64::NAN;
    readings[4].value = -0.0;
    readings[5].value = f64::MAX;
    readings[6].site = u16::MAX;
    for r in &readings {
        store.put_record::<IotReadingBySite, _>(r).await.unwrap();
    }
    // The row holds exactly the record's cells, Java's Bytes forms.
    let row = store.main().get(&readings[0].key()).await.unwrap().unwrap();
    assert_eq!(
        row.value("d", "value"),
        Some(&readings[0].value.to_be_bytes()[..])
    );
    assert_eq!(row.value("d", "site"), Some(&100u16.to_be_bytes()[..]));

    for site in [100, 103, 106, u16::MAX, 999] {
        let plan = IotReadingBySite::scan().site.eq(site).plan().unwrap();
        let mut found = store.query_records::<IotReadingBySite, IotReading, _>(&plan);
        let got: Vec<IotReading> = (&mut found).try_collect().await.unwrap();
        let want = brute(&readings, site);
        assert_eq!(got.len(), want.len(), "site {site}");
        for (g, w) in got.iter().zip(&want) {
            // NaN != NaN: compare the value's bits.
            assert_eq!(g.key(), w.key());
            assert_eq!((g.value.to_bits(), g.site), (w.value.to_bits(), w.site));
        }
        assert_eq!(found.stats().stale, 0);
    }
    let got: IotReading = store
        .main()
        .get_record(&readings[5].key())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(got, readings[5]);

    // Sites move: update_record moves the index rows with them.
    for r in readings.iter_mut().step_by(9) {
        r.site = 500 + r.site % 2;
        store.update_record::<IotReadingBySite, _>(r).await.unwrap();
    }
    for site in [500, 501, 102] {
        let plan = IotReadingBySite::scan().site.eq(site).plan().unwrap();
        let got: Vec<IotReading> = store
            .query_records::<IotReadingBySite, IotReading, _>(&plan)
            .try_collect()
            .await
            .unwrap();
        let want = brute(&readings, site);
        assert_eq!(
            got.iter().map(Record::key).collect::<Vec<_>>(),
            want.iter().map(Record::key).collect::<Vec<_>>(),
            "site {site}"
        );
    }

    // Another writer's column on the row: the record still reads.
    let key = readings[10].key();
    store
        .main()
        .put(&key, vec![Cell::new("d", "note", "calibrated")])
        .await
        .unwrap();
    let got: IotReading = store.main().get_record(&key).await.unwrap().unwrap();
    assert_eq!(got, readings[10]);

    // A corrupt value: the error names the record, the cell, the row, why.
    store
        .main()
        .put(&key, vec![Cell::new("d", "value", [1, 2, 3])])
        .await
        .unwrap();
    let err = store
        .main()
        .get_record::<IotReading>(&key)
        .await
        .unwrap_err();
    let StoreError::BadRecord { source, .. } = &err else {
        panic!("{err}")
    };
    let record = source.downcast_ref::<RecordError>().expect("a RecordError");
    let RecordError::Cell {
        record: name,
        family,
        qualifier,
        key: row_key,
        reason,
    } = record
    else {
        panic!("{record}")
    };
    assert_eq!(
        (*name, family.as_str(), &qualifier[..]),
        ("IotReading", "d", &b"value"[..])
    );
    assert_eq!(*row_key, key.to_vec().unwrap());
    assert!(matches!(
        reason,
        CellError::Width {
            expected: 8,
            found: 3,
            ..
        }
    ));
    let text = record.to_string();
    assert!(
        text.starts_with("cannot read IotReading from row ")
            && text.ends_with("cell d:value: expected 8 bytes (an f64), found 3"),
        "{text}"
    );
    assert!(text.contains(&rowkey::KeyDisplay(&row_key[..]).to_string()));
}

#[tokio::test]
async fn trial_on_memstore() {
    trial(MemStore::new(), MemStore::new()).await;
}

#[cfg(feature = "bigtable")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trial_on_the_emulator() {
    use rowkey::bigtable::{BigtableAdmin, BigtableStore, TableSpec};
    let emulator = rowkey_fixtures::emulator::Emulator::start();
    let host = &emulator.host;
    let admin = BigtableAdmin::connect_emulator(host, "p", "i").unwrap();
    let mut stores = Vec::new();
    for name in ["readings", "readings_by_site"] {
        admin
            .create_table(&TableSpec::new(name, &["d", "i"]))
            .await
            .unwrap();
        stores.push(
            BigtableStore::connect_emulator(host, "p", "i", name)
                .await
                .unwrap(),
        );
    }
    let index = stores.pop().unwrap();
    let main = stores.pop().unwrap();
    trial(main, index).await;
    drop(emulator);
}

#[cfg(feature = "hbase")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trial_on_hbase() {
    use rowkey::hbase::HBaseClient;
    use rowkey::store::admin::TableSpec;
    let client = HBaseClient::connect(&rowkey_fixtures::hbase::shared().thrift)
        .await
        .unwrap();
    let mut stores = Vec::new();
    for name in ["readings", "readings_by_site"] {
        let name = format!("{name}_{}", std::process::id());
        client
            .admin()
            .create_table(&TableSpec::new(&name, &["d", "i"]))
            .await
            .unwrap();
        stores.push(client.table(&name));
    }
    let index = stores.pop().unwrap();
    let main = stores.pop().unwrap();
    trial(main, index).await;
}

#[test]
fn key_of_the_trial_reading() {
    let r = &IotReading::rows(1)[0];
    let key: ReadingKey = r.key();
    assert_eq!(
        (key.device.as_str(), key.metric, key.at),
        (r.device.as_str(), r.metric, r.at)
    );
}
