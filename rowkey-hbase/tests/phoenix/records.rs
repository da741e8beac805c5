//! Typed records of a Phoenix table (`#[record(key = K, phoenix)]`,
//! `rowkey_fixtures::layouts::PhoenixMetricRow`) on a live Phoenix, both
//! ways: records written natively are the rows Phoenix's `SELECT` returns,
//! rows Phoenix's `UPSERT` wrote read natively as records, and a NULL
//! written either way reads as NULL the other.

use super::{phoenix, with_sql};
use futures::TryStreamExt;
use rowkey::store::{KeyRange, ReadRequest, Record, Store, StoreExt};
use rowkey_fixtures::layouts::{PhoenixMetricRow, Rng};
use rowkey_hbase::phoenix::{PhoenixTable, SYSTEM_CATALOG};

pub(crate) const DDL: &str = "CREATE TABLE REC_M (HOST VARCHAR NOT NULL, METRIC INTEGER NOT NULL, \
    AT BIGINT NOT NULL, V DOUBLE, NOTE VARCHAR(20), SEEN DATE \
    CONSTRAINT PK PRIMARY KEY (HOST, METRIC, AT DESC)) SALT_BUCKETS=16";

pub(crate) const SELECT: &str = "SELECT HOST, METRIC, AT, V, NOTE, TO_NUMBER(SEEN) FROM REC_M";

/// A record whose NOTE is at a qualifier the table does not have.
#[derive(rowkey::Record, Debug, PartialEq)]
#[record(key = rowkey_fixtures::layouts::PhoenixMetric, phoenix)]
struct WrongRow {
    host: String,
    metric: i32,
    at: i64,
    #[cell(qualifier = 11)]
    v: Option<f64>,
    #[cell(qualifier = 14)]
    note: Option<String>,
}

pub(crate) fn record(rng: &mut Rng, host: &str) -> PhoenixMetricRow {
    let some = |rng: &mut Rng| rng.below(4) != 0;
    let notes = ["a", "web", "é Ω", "x y z", "twenty chars exactly"];
    PhoenixMetricRow {
        host: format!("{host}{}", rng.below(5)),
        metric: rng.below(2_000) as i32 - 1_000,
        at: rng.below(4_000_000_000_000) as i64 - 2_000_000_000_000,
        v: some(rng).then(|| rng.below(1 << 20) as f64 / 8.0 - 1_000.0),
        note: some(rng).then(|| notes[rng.below(notes.len() as u64) as usize].to_owned()),
        seen: some(rng).then(|| rng.below(4_000_000_000_000) as i64 - 2_000_000_000_000),
    }
}

fn literal<T: ToString>(v: &Option<T>, f: impl Fn(String) -> String) -> String {
    v.as_ref().map_or("NULL".into(), |v| f(v.to_string()))
}

fn upsert(r: &PhoenixMetricRow) -> String {
    format!(
        "UPSERT INTO REC_M VALUES ('{}', {}, {}, {}, {}, {})",
        r.host,
        r.metric,
        r.at,
        literal(&r.v, |v| v),
        literal(&r.note, |s| format!("'{s}'")),
        literal(&r.seen, |ms| format!("CAST({ms} AS DATE)")),
    )
}

/// A row of [`SELECT`] as JDBC's `getString` gives it, as a record.
pub(crate) fn selected(row: &[Option<String>]) -> PhoenixMetricRow {
    let text = |i: usize| row[i].clone();
    let num = |i: usize| text(i).map(|s| s.replace(',', ""));
    PhoenixMetricRow {
        host: text(0).expect("HOST"),
        metric: num(1).expect("METRIC").parse().unwrap(),
        at: num(2).expect("AT").parse().unwrap(),
        v: num(3).map(|s| s.parse().unwrap()),
        note: text(4),
        seen: num(5).map(|s| s.parse().unwrap()),
    }
}

pub(crate) fn sorted(mut rows: Vec<PhoenixMetricRow>) -> Vec<PhoenixMetricRow> {
    rows.sort_by_key(|r| r.to_key().unwrap().as_ref().to_vec());
    rows.dedup_by_key(|r| r.to_key().unwrap().as_ref().to_vec());
    rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_are_phoenix_rows_both_ways() {
    with_sql(|sql| sql.must(DDL));
    let client = rowkey_hbase::HBaseClient::connect(&phoenix().hbase.zk_address())
        .await
        .unwrap();
    // The record's columns are the ones Phoenix's catalog gave the table.
    let table = PhoenixTable::read(&client.table(SYSTEM_CATALOG), None, "REC_M")
        .await
        .unwrap();
    let mut catalog: Vec<(String, Vec<u8>)> = table
        .value_columns()
        .map(|c| (c.family.clone().unwrap(), c.qualifier.clone().unwrap()))
        .collect();
    catalog.push(("0".into(), vec![0, 0, 0, 0]));
    catalog.sort();
    let ours: Vec<(String, Vec<u8>)> = PhoenixMetricRow::columns()
        .unwrap()
        .iter()
        .map(|(f, q)| (f.to_owned(), q.to_vec()))
        .collect();
    assert_eq!(ours, catalog);

    table.check_record::<PhoenixMetricRow>().unwrap();
    let wrong = table.check_record::<WrongRow>().unwrap_err();
    assert_eq!(
        wrong.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["0:800e: the struct has a cell, Phoenix's catalog no column there"]
    );
    let source = table.record_struct();
    for line in [
        "#[record(key = RecMKey, phoenix)]\npub struct RecM {\n    pub host: String,\n",
        "    #[cell(qualifier = 12)]\n    #[phoenix(varchar(20))]\n    pub note: Option<String>,\n",
        "    #[cell(qualifier = 13)]\n    #[phoenix(date)]\n    pub seen: Option<i64>,\n}",
    ] {
        assert!(source.contains(line), "{source}");
    }

    let store = client.table("REC_M");
    let mut rng = Rng(31);
    // Written natively, selected by Phoenix.
    let ours = sorted((0..200).map(|_| record(&mut rng, "n-")).collect());
    for r in &ours {
        store.put_record(r).await.unwrap();
    }
    let theirs = with_sql(|sql| {
        sql.query(&format!("{SELECT} WHERE HOST LIKE 'n-%'"))
            .unwrap()
    });
    assert_eq!(sorted(theirs.iter().map(|r| selected(r)).collect()), ours);

    // Upserted by Phoenix, read natively: one by one and in a scan.
    let upserted = sorted((0..150).map(|_| record(&mut rng, "p-")).collect());
    with_sql(|sql| {
        for r in &upserted {
            sql.must(&upsert(r));
        }
    });
    for r in &upserted {
        let got = store
            .get_record::<PhoenixMetricRow>(&r.key())
            .await
            .unwrap();
        assert_eq!(got.as_ref(), Some(r));
    }
    let all: Vec<PhoenixMetricRow> = store
        .read_rows(ReadRequest::new([KeyRange::new(Vec::new(), None)]))
        .map_ok(|row| PhoenixMetricRow::from_row(&row).unwrap())
        .try_collect()
        .await
        .unwrap();
    let mut both = ours.clone();
    both.extend(upserted.iter().cloned());
    assert_eq!(sorted(all), sorted(both));

    // A NULL written natively over Phoenix's values is NULL to Phoenix
    // (the write clears the column, as Phoenix's own UPSERT of NULL does).
    let mut cleared: Vec<PhoenixMetricRow> = upserted.iter().take(20).cloned().collect();
    for r in &mut cleared {
        r.v = None;
        r.note = None;
        store.put_record(r).await.unwrap();
    }
    let theirs = with_sql(|sql| {
        sql.query(&format!("{SELECT} WHERE HOST LIKE 'p-%'"))
            .unwrap()
    });
    let theirs = sorted(theirs.iter().map(|r| selected(r)).collect());
    for r in &cleared {
        assert_eq!(theirs.iter().find(|t| t.key() == r.key()), Some(r));
    }
    // Through the table's checked rows: a record of another shape is
    // refused, writes go through here, and not to a table with an index.
    assert!(table.rows::<_, WrongRow>(client.table("REC_M")).is_err());
    let rows = table
        .rows::<_, PhoenixMetricRow>(client.table("REC_M"))
        .unwrap();
    let fresh = record(&mut rng, "r-");
    rows.put(std::slice::from_ref(&fresh)).await.unwrap();
    assert_eq!(rows.get(&fresh.key()).await.unwrap().as_ref(), Some(&fresh));
    with_sql(|sql| {
        sql.must(&DDL.replace("REC_M", "REC_I"));
        sql.must("CREATE INDEX REC_I_V ON REC_I (V)");
    });
    let indexed = PhoenixTable::read(&client.table(SYSTEM_CATALOG), None, "REC_I")
        .await
        .unwrap();
    let rows = indexed
        .rows::<_, PhoenixMetricRow>(client.table("REC_I"))
        .unwrap();
    let refused = rows.put(std::slice::from_ref(&fresh)).await.unwrap_err();
    assert!(
        matches!(&refused, rowkey_hbase::phoenix::PhoenixWriteError::Refused { why, .. } if why.contains("REC_I_V")),
        "{refused}"
    );
    assert_eq!(rows.get(&fresh.key()).await.unwrap(), None);
    let refused = rows.delete(&[fresh.key()]).await.unwrap_err();
    assert!(
        matches!(
            &refused,
            rowkey_hbase::phoenix::PhoenixWriteError::Refused { .. }
        ),
        "{refused}"
    );

    // Deletes both ways: a row deleted natively is gone from Phoenix's
    // SELECT, and one Phoenix deleted is gone natively.
    let rows = table
        .rows::<_, PhoenixMetricRow>(client.table("REC_M"))
        .unwrap();
    let where_key = |r: &PhoenixMetricRow| {
        format!(
            "WHERE HOST = '{}' AND METRIC = {} AND AT = {}",
            r.host, r.metric, r.at
        )
    };
    let (gone, also_gone) = (&ours[1], &ours[2]);
    rows.delete(&[gone.key(), fresh.key()]).await.unwrap();
    assert_eq!(rows.get(&gone.key()).await.unwrap(), None);
    let selected_gone =
        with_sql(|sql| sql.query(&format!("{SELECT} {}", where_key(gone))).unwrap());
    assert!(selected_gone.is_empty(), "{selected_gone:?}");
    assert!(rows.get(&also_gone.key()).await.unwrap().is_some());
    with_sql(|sql| sql.must(&format!("DELETE FROM REC_M {}", where_key(also_gone))));
    assert_eq!(rows.get(&also_gone.key()).await.unwrap(), None);

    // And Phoenix's UPSERT of NULL over our values reads natively as None.
    let mut nulled = ours[0].clone();
    nulled.seen = None;
    nulled.note = None;
    with_sql(|sql| sql.must(&upsert(&nulled)));
    let got = store
        .get_record::<PhoenixMetricRow>(&nulled.key())
        .await
        .unwrap();
    assert_eq!(got, Some(nulled));
}

/// The same rows in an immutable table: a family's columns in one cell.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn single_cell_records_are_phoenix_rows_byte_for_byte() {
    use rowkey_fixtures::layouts::PhoenixEventRow;
    use rowkey_hbase::phoenix::StorageScheme;
    with_sql(|sql| sql.must(&DDL.replace("CREATE TABLE REC_M", "CREATE IMMUTABLE TABLE REC_E")));
    let client = rowkey_hbase::HBaseClient::connect(&phoenix().hbase.zk_address())
        .await
        .unwrap();
    let table = PhoenixTable::read(&client.table(SYSTEM_CATALOG), None, "REC_E")
        .await
        .unwrap();
    assert_eq!(table.storage, StorageScheme::SingleCellArrayWithOffsets);
    table.check_record::<PhoenixEventRow>().unwrap();
    let wrong = table.check_record::<PhoenixMetricRow>().unwrap_err();
    assert!(wrong[0].ours.contains("a cell per column"), "{wrong:?}");
    assert!(wrong[0].theirs.contains("SINGLE_CELL"), "{wrong:?}");
    let source = table.record_struct();
    assert!(
        source.contains("#[record(key = RecEKey, phoenix(single_cell_array_with_offsets))]"),
        "{source}"
    );

    let store = client.table("REC_E");
    let mut rng = Rng(41);
    let ours: Vec<PhoenixEventRow> = sorted((0..150).map(|_| record(&mut rng, "n-")).collect())
        .into_iter()
        .map(PhoenixEventRow::from)
        .collect();
    store.put_records(&ours).await.unwrap();
    let theirs = with_sql(|sql| {
        sql.query(&format!(
            "{} WHERE HOST LIKE 'n-%'",
            SELECT.replace("REC_M", "REC_E")
        ))
        .unwrap()
    });
    let theirs: Vec<PhoenixEventRow> = sorted(theirs.iter().map(|r| selected(r)).collect())
        .into_iter()
        .map(PhoenixEventRow::from)
        .collect();
    assert_eq!(theirs, ours);

    // Phoenix's rows: read natively, and their cells are ours, byte for byte.
    let upserted = sorted((0..100).map(|_| record(&mut rng, "p-")).collect());
    with_sql(|sql| {
        for r in &upserted {
            sql.must(&upsert(r).replace("REC_M", "REC_E"));
        }
    });
    let raw = with_sql(|sql| sql.raw("REC_E"));
    for r in upserted.into_iter().map(PhoenixEventRow::from) {
        let got = store.get_record::<PhoenixEventRow>(&r.key()).await.unwrap();
        assert_eq!(got.as_ref(), Some(&r));
        let key = r.to_key().unwrap().as_ref().to_vec();
        let mut cells: Vec<(Vec<u8>, Vec<u8>)> = raw
            .iter()
            .filter(|c| c.row == key)
            .map(|c| (c.qualifier.clone(), c.value.clone()))
            .collect();
        cells.sort();
        let mut want: Vec<(Vec<u8>, Vec<u8>)> = r
            .try_cells()
            .unwrap()
            .into_iter()
            .map(|c| (c.qualifier, c.value))
            .collect();
        want.sort();
        assert_eq!(cells, want, "{r:?}");
    }
}
