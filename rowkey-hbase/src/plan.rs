//! A plan's (or a read request's) ranges as one `TScan` each.

use crate::reversed::ReversedTScan;
use crate::scan::ToTScan;
use hbase_thrift::hbase::TScan;
use rowkey_core::scan::ScanPlan;
use rowkey_store::ReadRequest;

/// One forward `TScan` per range of `plan` (one per salt bucket it
/// touches), in key order; an empty plan gives none. Open one scanner per
/// scan; each returns its range's rows in key order, and
/// [`merge_sorted`](rowkey_core::scan::merge_sorted) with the plan's
/// [`prefix_len`](ScanPlan::prefix_len) merges them into logical order.
///
/// The plan's [`limit`](ScanPlan::limit) (`latest(n)` sets `n`) is not in the
/// scans: a Thrift1 `TScan` has no row limit (`caching` is how many rows
/// one fetch returns and `batchSize` splits rows into partial rows;
/// neither is a limit, so neither is set). Stop after `plan.limit()` rows:
/// ask `scannerGetList(id, n)` for no more rows than are still wanted,
/// then `scannerClose`. Each bucket's scan may need up to the limit.
///
/// A plan with a [fuzzy key](ScanPlan::with_fuzzy) gives the scans of its
/// ranges and no filter: Thrift1 carries filters only as filter strings,
/// whose language has no `FuzzyRowFilter`, and whose
/// `RowFilter(=, 'regexstring:..')` matches rows decoded as UTF-8, which is
/// not exact for keys with bytes above `0x7F` (see
/// [`FuzzyKey`](rowkey_core::scan::FuzzyKey)). Keep the rows whose keys
/// [`plan.contains`](ScanPlan::contains) (or `fuzzy.matches`). Clients of
/// HBase's Java API (or Thrift2, REST) send
/// [`hbase_fuzzy_pair`](rowkey_core::scan::FuzzyKey::hbase_fuzzy_pair) as
/// a `FuzzyRowFilter`; HBase's filter also passes keys shorter than the
/// pattern that agree with it, so filter those out too where a layout
/// has them.
///
/// ```
/// use rowkey::RowKey;
/// use rowkey_hbase::plan_scans;
///
/// #[derive(RowKey)]
/// struct Op {
///     #[salt(buckets = 4, binary)]
///     user: u32,
///     seq: u32,
/// }
///
/// let scans = plan_scans(&Op::scan().plan()?);
/// assert_eq!(scans.len(), 4);
/// assert_eq!(scans[1].start_row, Some(vec![1]));
/// assert_eq!(scans[1].stop_row, Some(vec![2]));
/// assert_eq!(scans[3].stop_row, Some(vec![4]));
/// // One user's rows are in one bucket.
/// assert_eq!(plan_scans(&Op::scan().user.eq(7).plan()?).len(), 1);
/// // An empty plan has no scans: never a scan without bounds, which
/// // would read the whole table.
/// assert!(plan_scans(&rowkey::scan::ScanPlan::<9>::empty()).is_empty());
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
pub fn plan_scans<const N: usize>(plan: &ScanPlan<N>) -> Vec<TScan> {
    let mut ranges: Vec<_> = plan.ranges().collect();
    ranges.sort_by(|a, b| a.start().cmp(b.start()));
    ranges.iter().filter_map(ToTScan::to_tscan).collect()
}

/// One [`ReversedTScan`] per range of `plan`, highest range first: reading
/// them in order, each with its steps, gives the plan's rows in descending
/// stored key order (bucket after bucket for a salted key). An empty plan
/// gives none. The plan's limit is not in the scans: see [`plan_scans`].
///
/// ```
/// use rowkey::RowKey;
/// use rowkey_hbase::plan_scans_reversed;
///
/// #[derive(RowKey)]
/// struct Op {
///     #[salt(buckets = 4, binary)]
///     user: u32,
///     seq: u32,
/// }
///
/// let reads = plan_scans_reversed(&Op::scan().plan()?);
/// assert_eq!(reads.len(), 4);
/// // The last bucket first, [03, 04): from 04 (a row 04 is skipped) down
/// // to 02 (exclusive; a row 02 ... says stop).
/// assert_eq!(reads[0].tscan().start_row, Some(vec![4]));
/// assert_eq!(reads[0].tscan().stop_row, Some(vec![2]));
/// // The first bucket last: down to the first row of the table.
/// assert_eq!(reads[3].tscan().start_row, Some(vec![1]));
/// assert_eq!(reads[3].tscan().stop_row, None);
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
pub fn plan_scans_reversed<const N: usize>(plan: &ScanPlan<N>) -> Vec<ReversedTScan> {
    let mut ranges: Vec<_> = plan.ranges().collect();
    ranges.sort_by(|a, b| b.start().cmp(a.start()));
    ranges
        .iter()
        .filter_map(ToTScan::to_reversed_tscan)
        .collect()
}

/// One forward `TScan` per range of `request` (sorted and disjoint), in
/// key order; a request without ranges gives none. Reading them in order
/// gives the request's rows in key order. The request's limit is not in
/// the scans: stop after [`ReadRequest::limit`] rows, as for a plan (see
/// [`plan_scans`]). With [`ReadRequest::after`], a read that failed
/// resumes after the last row it delivered.
///
/// A request restricted to a [cell slice](ReadRequest::with_cells) reads
/// its family, its qualifier ranges and per-row cap in the
/// `filterString` ([`slice_filter_string`]).
///
/// A request restricted to [columns](ReadRequest::with_columns) (a record
/// read's) sets each scan's `columns` to them, as `family:qualifier`
/// (HBase's Thrift handler splits each at its first `:`, so a qualifier
/// may hold one); a restriction to no column gives no scan, as HBase
/// would read every column for an empty list.
///
/// ```
/// use rowkey::store::{KeyRange, ReadRequest};
/// use rowkey_hbase::request_scans;
///
/// let request = ReadRequest::new([
///     KeyRange::new(b"c".to_vec(), Some(b"d".to_vec())),
///     KeyRange::new(b"a".to_vec(), Some(b"b".to_vec())),
/// ]);
/// let scans = request_scans(&request.after(b"a\x07"));
/// assert_eq!(scans.len(), 2);
/// assert_eq!(scans[0].start_row, Some(b"a\x07\x00".to_vec()));
/// assert_eq!(scans[1].start_row, Some(b"c".to_vec()));
///
/// use rowkey::store::Columns;
/// let record = request.with_columns(Columns::new([("d", "v"), ("d", "a:b")]));
/// let scans = request_scans(&record);
/// assert_eq!(scans[0].columns, Some(vec![b"d:a:b".to_vec(), b"d:v".to_vec()]));
/// assert_eq!(scans[0].timestamp, None);
/// ```
pub fn request_scans(request: &ReadRequest) -> Vec<TScan> {
    let slice = request.cells();
    let mut columns = request.columns().map(|c| {
        c.iter()
            .filter(|(f, q)| slice.is_none_or(|s| s.contains(f, q)))
            .map(|(family, qualifier)| [family.as_bytes(), b":", qualifier].concat())
            .collect::<Vec<_>>()
    });
    // A cell slice: its family (unless columns say more), its qualifier
    // ranges and per-row cap in the filter string.
    if let Some(s) = slice {
        columns.get_or_insert_with(|| vec![s.family_name().as_bytes().to_vec()]);
    }
    let filter = slice.and_then(slice_filter_string);
    if columns.as_ref().is_some_and(Vec::is_empty) {
        // HBase's handler reads every column for an empty list.
        return Vec::new();
    }
    request
        .ranges()
        .iter()
        .filter_map(ToTScan::to_tscan)
        .map(|mut scan| {
            scan.columns.clone_from(&columns);
            scan.filter_string.clone_from(&filter);
            scan
        })
        .collect()
}

/// A slice in HBase's filter language, as Thrift 1's `filterString`
/// takes it, or `None` when it needs no filter (the whole family, no
/// cap): its qualifier ranges as `ColumnRangeFilter('start', true,
/// 'stop', false)` joined by `OR` (an empty stop: no end), then its
/// per-row cap as `ColumnPaginationFilter(n, 0)` after an `AND`. Since
/// HBASE-20565 a `FilterList` passes a cell on only while it is
/// included, so the cap counts the cells the ranges keep. Quoted as the
/// language quotes (a `'` doubled); every other byte goes as it is, as
/// the parser reads bytes.
///
/// ```
/// use rowkey::store::CellSlice;
/// use rowkey_hbase::slice_filter_string;
/// let s = CellSlice::family("t").between(b"a'b".to_vec(), Some(b"\xFF".to_vec()));
/// assert_eq!(
///     slice_filter_string(&s).unwrap(),
///     b"(ColumnRangeFilter('a''b', true, '\xFF', false))"
/// );
/// assert_eq!(
///     slice_filter_string(&s.per_row(10)).unwrap(),
///     b"(ColumnRangeFilter('a''b', true, '\xFF', false)) AND ColumnPaginationFilter(10, 0)"
/// );
/// assert_eq!(slice_filter_string(&CellSlice::family("t")), None);
/// ```
pub fn slice_filter_string(slice: &rowkey_store::CellSlice) -> Option<Vec<u8>> {
    fn quoted(out: &mut Vec<u8>, bytes: &[u8]) {
        out.push(b'\'');
        for &b in bytes {
            if b == b'\'' {
                out.push(b'\'');
            }
            out.push(b);
        }
        out.push(b'\'');
    }
    let mut out = Vec::new();
    if !slice.is_whole_family() {
        out.push(b'(');
        for (i, r) in slice.qualifier_ranges().iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(b" OR ");
            }
            out.extend_from_slice(b"ColumnRangeFilter(");
            quoted(&mut out, &r.start);
            out.extend_from_slice(b", true, ");
            quoted(&mut out, r.stop.as_deref().unwrap_or_default());
            out.extend_from_slice(b", false)");
        }
        out.push(b')');
    }
    if let Some(n) = slice.row_limit() {
        if !out.is_empty() {
            out.extend_from_slice(b" AND ");
        }
        out.extend_from_slice(format!("ColumnPaginationFilter({n}, 0)").as_bytes());
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rowkey_core::scan::FuzzyKey;

    /// A fuzzy plan's scans are its ranges' scans, byte for byte, with no
    /// filter string (none would be exact); its pair is HBase 2.x's.
    #[test]
    fn fuzzy_plans_scan_their_ranges_and_give_the_pair() {
        let mut fuzzy = FuzzyKey::<8>::new();
        fuzzy.push_free(2).unwrap();
        fuzzy.push_fixed(&[0xFF, b'\n']).unwrap();
        let plain = ScanPlan::<8>::from_bounds(b"\x00", Some(b"\xFF\x00")).unwrap();
        let plan = plain.clone().with_fuzzy(fuzzy);
        assert_eq!(plan_scans(&plan), plan_scans(&plain));
        assert_eq!(plan_scans(&plan)[0].filter_string, None);
        assert_eq!(request_scans(&ReadRequest::plan(&plan)), plan_scans(&plain));
        let (row, mask) = plan.fuzzy().unwrap().hbase_fuzzy_pair();
        assert_eq!(row, [0, 0, 0xFF, b'\n']);
        assert_eq!(mask, [1, 1, 0, 0]);
        assert!(plan.contains(b"ab\xFF\nz") && !plan.contains(b"ab\xFF\r"));
    }
}
