//! OpenTSDB 2.4's tables from Rust, byte for byte: UIDs assigned in
//! `tsdb-uid` as OpenTSDB assigns them (a counter, then the UID's row,
//! then the name's row if absent), points written to `tsdb` (one row per
//! series and hour, one cell per point, second and millisecond
//! qualifiers side by side, the rows salted over 20 buckets as OpenTSDB
//! does with `tsd.storage.salt.width = 1`), then read back: one row's
//! points typed, and a metric's day over every series merged by time
//! across the 20 buckets, newest first, in pages of 500 points.
//!
//! The types are `rowkey_fixtures::layouts::{TsdbSaltedRow,
//! TsdbQualifier, TsdbValue, tsdb_uid}`, checked against OpenTSDB 2.4.1's
//! own encoder in `tests/it/opentsdb.rs`.
//!
//! Run: `cargo run --example opentsdb`

use futures::TryStreamExt;
use rowkey::scan::CellCursor;
use rowkey::store::{CellOrder, CellQueryExt, MemStore, WideColumn, WideStoreExt};
use rowkey::RowKey;
use rowkey_fixtures::layouts::{
    tsdb_name, tsdb_point, tsdb_uid, TsdbCell, TsdbQualifier, TsdbSaltedRow, TsdbValue, TSDB_FAMILY,
};

/// The data points: qualifiers in either form, values as stored (their
/// meaning is in the qualifier's flags).
const POINTS: WideColumn<TsdbQualifier, TsdbCell> = WideColumn::new(TSDB_FAMILY);

fn hour(k: &TsdbSaltedRow) -> u32 {
    k.base_time
}

/// A point's time in milliseconds.
fn time(k: &TsdbSaltedRow, q: &TsdbQualifier) -> u64 {
    u64::from(k.base_time) * 1000 + u64::from(q.offset_ms())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    futures::executor::block_on(async {
        let (uids, tsdb) = (MemStore::new(), MemStore::new());
        let metric = tsdb_uid(&uids, "metrics", "sys.cpu.user").await?;
        let host = tsdb_uid(&uids, "tagk", "host").await?;
        let day_start: u64 = 1_700_002_800; // an hour's start
        let mut written = 0;
        for (h, name) in ["web01", "web02", "web03"].iter().enumerate() {
            let value = tsdb_uid(&uids, "tagv", name).await?;
            for at in (0..24 * 3600).step_by(60) {
                let ts = day_start + at + h as u64;
                // Every tenth point in milliseconds, as a float.
                let (ts, v) = if at % 600 == 0 {
                    (ts * 1000 + 250, TsdbValue::Float(at as f32 / 100.0))
                } else {
                    (ts, TsdbValue::Int(at as i64 % 97 - 48))
                };
                let (row, q, bytes) = tsdb_point(metric, &[(host, value)], ts, v);
                let row = TsdbSaltedRow::from(row);
                tsdb.put_cells(&row, &POINTS, [(q, TsdbCell(bytes))])
                    .await?;
                written += 1;
            }
        }
        println!(
            "wrote {written} points of {} for 3 hosts into {} rows",
            tsdb_name(&uids, "metrics", metric)
                .await?
                .unwrap_or_default(),
            tsdb.keys().len()
        );

        // One series' hour, typed: its points in qualifier order (second
        // qualifiers first, then millisecond ones).
        let web01 = tsdb_uid(&uids, "tagv", "web01").await?;
        let (row, _, _) = tsdb_point(metric, &[(host, web01)], day_start, TsdbValue::Int(0));
        let row = TsdbSaltedRow::from(row);
        let points: Vec<(TsdbQualifier, TsdbCell)> = tsdb
            .read_cells(&row, &POINTS, POINTS.all())
            .try_collect()
            .await?;
        let (q, cell) = &points[0];
        println!(
            "row {}: {} points; the first at +{} ms: {:?}",
            rowkey::KeyDisplay(&row.to_vec()?),
            points.len(),
            q.offset_ms(),
            TsdbValue::from_bytes(&cell.0, q.flags())?
        );
        assert_eq!(points.len(), 60);

        // The metric's day over every host, newest first, 500 a page: the
        // tags are not given, so the plan reads all 20 buckets and the
        // points are merged across them by time.
        let plan = TsdbSaltedRow::scan().metric.eq(metric).plan()?.reversed();
        assert_eq!(plan.ranges().len(), 20);
        let order = CellOrder::newest_first(hour, time);
        let mut cursor: Option<CellCursor> = None;
        let (mut pages, mut read, mut last) = (0, 0, u64::MAX);
        loop {
            let page = tsdb
                .page_cells(&plan, &POINTS, POINTS.all(), order, cursor.as_ref(), 500)
                .await?;
            for p in &page.cells {
                let t = time(&p.key, &p.qualifier);
                assert!(t <= last, "newest first");
                last = t;
            }
            pages += 1;
            read += page.cells.len();
            match page.next {
                // As a web client would hold it.
                Some(next) => cursor = Some(next.to_string().parse()?),
                None => break,
            }
        }
        assert_eq!(read, written);
        println!("read the day back newest first: {read} points in {pages} pages of 500");
        Ok(())
    })
}
