//! Reads as native scans. A forward read of several ranges is one scan
//! from the first range's start to the last one's stop with the ranges as
//! a `MultiRowRangeFilter`, so the region servers skip between them; a
//! fuzzy key goes as a `FuzzyRowFilter`. A reversed read scans its ranges
//! one by one, newest first, and applies a fuzzy key on the client: HBase
//! 2.6.1's `FuzzyRowFilter` misses rows in reversed scans (HBASE-28634).
//! Every row is checked against the request on the client as well (HBase
//! also lets a fuzzy key match keys shorter than itself; the store does
//! not), so what the server filters is only a saving, never the rule.

use super::store_error;
use futures_util::StreamExt;
use hbase_native::{Filter, Get, Scan};
use rowkey_store::{Cell, CellSlice, Columns, ReadRequest, Row, RowStream, StoreError};
use std::sync::Arc;

/// The rows of `request` from `table`, `page_rows` a round trip.
pub(crate) fn read(
    client: &hbase_native::Client,
    table: Arc<str>,
    request: ReadRequest,
    page_rows: u32,
) -> RowStream {
    // No column asked for: no row has one.
    if request.is_empty() || request.reads_no_cell() {
        return Box::pin(futures_util::stream::empty());
    }
    if let Some(key) = one_row(&request) {
        return read_one(client, table, request, key);
    }
    let scans = scans_of(&request, page_rows);
    let client = client.clone();
    let limit = request.limit();
    let request = Arc::new(request);
    let rows = futures_util::stream::iter(scans)
        .map(move |scan| {
            let table = table.clone();
            let request = request.clone();
            client.scan(&table.clone(), scan).filter_map(move |row| {
                let out = match row {
                    Ok(row) if request.contains(&row.row) => Some(row_of(row, &request, &table)),
                    // The client's own rule: a fuzzy key that HBase lets
                    // match a shorter key.
                    Ok(row) if in_ranges(&request, &row.row) => None,
                    Ok(row) => Some(Err(outside(&row.row))),
                    Err(e) => Some(Err(store_error("read rows", &table, e))),
                };
                std::future::ready(out)
            })
        })
        .flatten();
    match limit {
        Some(n) => Box::pin(rows.take(usize::try_from(n).unwrap_or(usize::MAX))),
        None => Box::pin(rows),
    }
}

/// The key of a request for one row (a point read), if it is one.
fn one_row(request: &ReadRequest) -> Option<Vec<u8>> {
    match request.ranges() {
        [r] if !r.start.is_empty()
            && r.stop.as_deref() == Some(&[r.start.as_slice(), &[0]].concat()[..]) =>
        {
            Some(r.start.clone())
        }
        _ => None,
    }
}

/// A point read as one `Get` (a `Multi` of one), not a scanner opened and
/// closed: one round trip. Its columns, slice filter and per-row cap are
/// the scan's; a fuzzy key is checked on the client.
fn read_one(
    client: &hbase_native::Client,
    table: Arc<str>,
    request: ReadRequest,
    key: Vec<u8>,
) -> RowStream {
    let scan = scans_of(&request, 1).remove(0);
    let mut get = Get::columns(scan.columns);
    // The scan's filter is the slice's column ranges (a single range has
    // no row filter); a fuzzy key is checked here.
    if let Some(f) = request.cells().and_then(slice_filter) {
        get = get.filter(f);
    }
    if let Some(n) = scan.cells_per_family {
        get = get.cells_per_family(n);
    }
    let client = client.clone();
    let read = async move {
        if !request.contains(&key) {
            return Vec::new();
        }
        match client.get_with(&table, vec![key], get).await {
            Ok(mut rows) => match rows.pop().flatten() {
                Some(row) if !row.cells.is_empty() => vec![row_of(row, &request, &table)],
                _ => Vec::new(),
            },
            Err(e) => vec![Err(store_error("read rows", &table, e))],
        }
    };
    Box::pin(futures_util::stream::once(read).flat_map(futures_util::stream::iter))
}

/// A slice's qualifier ranges as a `ColumnRanges` filter; none for the
/// whole family (the scan's family says it, and a filter would cost the
/// servers a check of every cell).
fn slice_filter(slice: &CellSlice) -> Option<Filter> {
    (!slice.is_whole_family()).then(|| {
        Filter::ColumnRanges(
            slice
                .qualifier_ranges()
                .iter()
                .map(|r| (r.start.clone(), r.stop.clone()))
                .collect(),
        )
    })
}

/// Whether `key` is in one of the request's ranges.
fn in_ranges(request: &ReadRequest, key: &[u8]) -> bool {
    request.ranges().iter().any(|r| r.contains(key))
}

/// A row the server sent that no range asked for: its filter broke the
/// scan's rules, and the read fails rather than drop or keep it.
fn outside(key: &[u8]) -> StoreError {
    StoreError::backend(
        "read rows",
        format!(
            "the server sent row {}, in none of the ranges read (its filter broke the scan)",
            rowkey_core::KeyDisplay(key)
        ),
    )
}

/// The scans that read `request`, in the order their rows are delivered.
fn scans_of(request: &ReadRequest, page_rows: u32) -> Vec<Scan> {
    let ranges = request.ranges();
    // A limit caps each round trip too (the stream stops at the limit).
    let caching = request
        .limit()
        .map_or(page_rows, |l| l.min(u64::from(page_rows)) as u32);
    let slice = request.cells();
    let mut columns: Vec<(Vec<u8>, Option<Vec<u8>>)> = request
        .columns()
        .map(|c| {
            c.iter()
                .filter(|(f, q)| slice.is_none_or(|s| s.contains(f, q)))
                .map(|(f, q)| (f.as_bytes().to_vec(), Some(q.to_vec())))
                .collect()
        })
        .unwrap_or_default();
    // A slice reads its family only, its qualifier ranges filtered and
    // its per-row cap counted by the region servers.
    if let Some(s) = slice.filter(|_| columns.is_empty()) {
        columns.push((s.family_name().as_bytes().to_vec(), None));
    }
    let slice_filter = slice.and_then(slice_filter);
    let base = |start: &[u8], stop: Option<&Vec<u8>>| {
        let mut scan =
            Scan::range(start.to_vec(), stop.cloned().unwrap_or_default()).caching(caching);
        scan.columns = columns.clone();
        scan.filter = slice_filter.clone();
        scan.cells_per_family = slice.and_then(|s| s.row_limit());
        scan
    };
    if request.is_reversed() {
        return ranges
            .iter()
            .rev()
            .map(|r| base(&r.start, r.stop.as_ref()).reversed())
            .collect();
    }
    let first = &ranges[0];
    let last = &ranges[ranges.len() - 1];
    let mut scan = base(&first.start, last.stop.as_ref());
    let mut filters: Vec<Filter> = scan.filter.take().into_iter().collect();
    if ranges.len() > 1 {
        filters.push(Filter::RowRanges(
            ranges
                .iter()
                .map(|r| (r.start.clone(), r.stop.clone().unwrap_or_default()))
                .collect(),
        ));
    }
    if let Some(fuzzy) = request.fuzzy().filter(|f| !f.is_empty()) {
        filters.push(Filter::Fuzzy(vec![fuzzy.hbase_fuzzy_pair()]));
    }
    scan.filter = match filters.len() {
        0 => None,
        1 => filters.pop(),
        _ => Some(Filter::All(filters)),
    };
    // Only a request whose every row the server keeps may cap the scan
    // there; else the client's check could drop rows the cap counted.
    if request.fuzzy().is_none() {
        scan.limit = request.limit();
    }
    vec![scan]
}

fn row_of(
    row: hbase_native::RowResult,
    request: &ReadRequest,
    table: &str,
) -> Result<Row, StoreError> {
    // The servers filtered; the client holds the read to its rules.
    let cap = request
        .cells()
        .and_then(|s| s.row_limit())
        .map_or(usize::MAX, |n| n as usize);
    let mut kept = 0;
    // Collected in the place of the client's cells: a wide row's cells
    // are not copied into a second allocation of their size.
    let cells = row
        .cells
        .into_iter()
        .filter_map(|cell| {
            let family = match String::from_utf8(cell.family) {
                Ok(f) => f,
                Err(e) => {
                    return Some(Err(StoreError::backend(
                        "read rows",
                        format!(
                            "table {table}: a column family that is not UTF-8: {:02x?}",
                            e.as_bytes()
                        ),
                    )))
                }
            };
            (kept < cap && request.wants_cell(&family, &cell.qualifier)).then(|| {
                kept += 1;
                Ok(Cell {
                    family,
                    qualifier: cell.qualifier,
                    value: cell.value,
                })
            })
        })
        .collect::<Result<Vec<Cell>, StoreError>>()?;
    Ok(Row::new(row.row, cells))
}

/// Keys per `Multi` of gets.
const GET_BATCH: usize = 1000;

/// The rows of `keys` that exist, in key order, each once: a `Multi` of
/// gets per region server for each batch of 1,000 keys.
pub(crate) fn read_keys(
    client: &hbase_native::Client,
    table: Arc<str>,
    mut keys: Vec<Vec<u8>>,
    columns: Option<Columns>,
) -> RowStream {
    if columns.as_ref().is_some_and(|c| c.is_empty()) {
        return Box::pin(futures_util::stream::empty());
    }
    keys.sort();
    keys.dedup();
    let wanted: Vec<(Vec<u8>, Option<Vec<u8>>)> = columns
        .iter()
        .flat_map(|c| {
            c.iter()
                .map(|(f, q)| (f.as_bytes().to_vec(), Some(q.to_vec())))
        })
        .collect();
    let client = client.clone();
    let batches: Vec<Vec<Vec<u8>>> = keys.chunks(GET_BATCH).map(<[Vec<u8>]>::to_vec).collect();
    let rows = futures_util::stream::iter(batches)
        .then(move |batch| {
            let client = client.clone();
            let table = table.clone();
            let wanted = wanted.clone();
            async move {
                let found = client
                    .get(&table, batch, wanted)
                    .await
                    .map_err(|e| store_error("read keys", &table, e))?;
                let request = ReadRequest::new([]);
                found
                    .into_iter()
                    .flatten()
                    .map(|row| row_of(row, &request, &table))
                    .collect::<Result<Vec<Row>, StoreError>>()
            }
        })
        .map(|batch| match batch {
            Ok(rows) => futures_util::stream::iter(rows.into_iter().map(Ok).collect::<Vec<_>>()),
            Err(e) => futures_util::stream::iter(vec![Err(e)]),
        })
        .flatten();
    Box::pin(rows)
}
