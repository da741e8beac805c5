//! A scan of a table, region by region: each region's scanner paged
//! through, the next region found from where the last one ended, and a
//! lost scanner (moved region, dead server, cut connection, expired
//! lease) reopened strictly after the last row delivered. No row twice,
//! none missed, in order, across splits, merges and moves.
//!
//! A scanner reads its region as of the read point it opened at. A
//! reopened one starts at the server's current point, never the lost
//! one's: once no scanner holds a read point, a flush (a region closing
//! to move, a memstore filling) keeps only the newest version of a cell,
//! and a row written since that point would have no version visible at
//! it; a scan paused past its lease lost half its rows that way. So rows
//! written while a scan runs may be read after a reopen (as in the next
//! region, which opens at its own point), and every row that was there
//! throughout is read. HBase's Java client keeps the lost scanner's read
//! point in its synchronous scanner (and can miss such rows); its
//! asynchronous one starts afresh, as this one does.
//!
//! Every row a server sends is checked against the scan before it is
//! delivered: inside the scan's range and the region's, and strictly
//! after the last row delivered. A server that breaks that fails the
//! scan ([`Error::Protocol`]); a row is never dropped or taken twice.

use crate::cluster::Cluster;
use crate::error::{Error, Result};
use crate::filter;
use crate::options::CallPolicy;
use crate::proto;
use crate::scanner::{Page, RegionScanner};
use crate::types::{RowResult, Scan};
use std::sync::Arc;
use tokio::sync::mpsc;

/// Where the scan stands: what it still has to read.
struct Position {
    /// Forward: the first key left (and whether it is itself left).
    /// Reversed: the key everything left is below (empty: no bound yet),
    /// and whether that key itself is left.
    key: Vec<u8>,
    inclusive: bool,
    /// Rows still wanted.
    left: Option<u64>,
}

/// Runs `scan` of `table`, sending pages of rows to `pages` until the scan
/// ends, fails (the error is sent last) or the receiver goes.
pub(crate) async fn run(
    cluster: Arc<Cluster>,
    policy: CallPolicy,
    table: String,
    scan: Scan,
    pages: mpsc::Sender<Result<Vec<RowResult>>>,
) {
    if let Err(e) = scan_table(&cluster, &policy, &table, &scan, &pages).await {
        let _ = pages.send(Err(e)).await;
    }
}

async fn scan_table(
    cluster: &Cluster,
    policy: &CallPolicy,
    table: &str,
    scan: &Scan,
    pages: &mpsc::Sender<Result<Vec<RowResult>>>,
) -> Result<()> {
    if let Err(why) = scan.validate() {
        return Err(Error::InvalidScan { why });
    }
    let mut at = Position {
        key: if scan.reversed {
            scan.stop.clone()
        } else {
            scan.start.clone()
        },
        inclusive: !scan.reversed,
        left: scan.limit,
    };
    let filter = scan.filter.as_ref().map(filter::to_proto);
    let mut failures = 0;
    loop {
        if at.left == Some(0) {
            return Ok(());
        }
        match scan_region(
            cluster,
            policy,
            table,
            scan,
            filter.as_ref(),
            &mut at,
            pages,
        )
        .await
        {
            Ok(RegionEnd::Done) => return Ok(()),
            Ok(RegionEnd::NextRegion) => failures = 0,
            Err(e) if e.is_retryable() => {
                cluster.forget(Some(table), &e);
                failures += 1;
                tokio::time::sleep(policy.retry_after(failures, e)?).await;
            }
            Err(e) => return Err(e),
        }
        if pages.is_closed() {
            return Ok(());
        }
    }
}

enum RegionEnd {
    /// The scan has no more rows.
    Done,
    /// This region is read; the position is the next region's first key.
    NextRegion,
}

/// Reads the region where the scan stands, from the position on, and
/// moves the position past every row it delivers.
async fn scan_region(
    cluster: &Cluster,
    policy: &CallPolicy,
    table: &str,
    scan: &Scan,
    filter: Option<&proto::Filter>,
    at: &mut Position,
    pages: &mpsc::Sender<Result<Vec<RowResult>>>,
) -> Result<RegionEnd> {
    let regions = cluster.regions(table).await?;
    let region = if scan.reversed {
        match regions.before(&at.key) {
            Some(region) => region.clone(),
            None => return Ok(RegionEnd::Done),
        }
    } else {
        regions.containing(&at.key).clone()
    };
    let request = proto::Scan {
        column: columns_of(&scan.columns),
        start_row: Some(at.key.clone()),
        include_start_row: Some(at.inclusive),
        stop_row: Some(if scan.reversed {
            scan.start.clone()
        } else {
            scan.stop.clone()
        }),
        include_stop_row: Some(scan.reversed && !scan.start.is_empty()),
        filter: filter.cloned(),
        reversed: Some(scan.reversed),
        caching: Some(scan.caching.max(1)),
        max_versions: Some(1),
        store_limit: scan.cells_per_family,
        allow_partial_results: Some(false),
        // As HBase's Java client asks: a page stops at about 2 MiB.
        max_result_size: Some(2 << 20),
        ..Default::default()
    };
    let rows = |left: Option<u64>| {
        left.map_or(scan.caching, |l| l.min(u64::from(scan.caching)) as u32)
            .max(1)
    };
    let (mut scanner, mut page) = RegionScanner::open(
        cluster,
        policy.timeout(),
        &region.server,
        &region.name,
        request,
        rows(at.left),
    )
    .await?;
    loop {
        if let Err(e) = check_rows(&page.rows, at, scan, &region) {
            scanner.close().await;
            return Err(e);
        }
        let next = deliver(&mut page, at, pages).await;
        match next {
            Delivered::ReceiverGone => {
                scanner.close().await;
                return Ok(RegionEnd::Done);
            }
            Delivered::LimitReached => {
                scanner.close().await;
                return Ok(RegionEnd::Done);
            }
            Delivered::Ok => {}
        }
        if !page.more {
            return Ok(RegionEnd::Done);
        }
        // A page of no rows (a heartbeat) delivers nothing, so sees no
        // receiver gone: a scan nobody reads stops here too.
        if pages.is_closed() {
            scanner.close().await;
            return Ok(RegionEnd::Done);
        }
        if !page.more_in_region {
            break;
        }
        page = match scanner.next(rows(at.left)).await {
            Ok(page) => page,
            Err(e) => {
                // The scanner is lost; whatever was delivered stays
                // delivered, and the retry reopens after it.
                return Err(e);
            }
        };
    }
    // The region is read: on to the next.
    if scan.reversed {
        if region.start.is_empty() || region.start <= scan.start {
            return Ok(RegionEnd::Done);
        }
        at.key = region.start.clone();
        at.inclusive = false;
    } else {
        if region.end.is_empty() || (!scan.stop.is_empty() && region.end >= scan.stop) {
            return Ok(RegionEnd::Done);
        }
        at.key = region.end.clone();
        at.inclusive = true;
    }
    Ok(RegionEnd::NextRegion)
}

/// Whether `rows` may follow the position in `region`: each inside the
/// scan's range and the region's, and strictly after the one before (in
/// the scan's direction), the first after the position.
fn check_rows(
    rows: &[RowResult],
    at: &Position,
    scan: &Scan,
    region: &crate::regions::Region,
) -> Result<()> {
    let bad = |row: &[u8], why: &str| {
        Error::protocol(
            &region.server,
            format!(
                "a scan of region {} sent row {}, {why}",
                region.display_name(),
                crate::regions::binary(row)
            ),
        )
    };
    let in_scan = |row: &[u8]| {
        row >= scan.start.as_slice() && (scan.stop.is_empty() || row < scan.stop.as_slice())
    };
    let mut last: Option<(&[u8], bool)> =
        (!at.key.is_empty() || !scan.reversed).then_some((at.key.as_slice(), at.inclusive));
    for row in rows {
        let key = row.row.as_slice();
        if !in_scan(key) {
            return Err(bad(key, "outside the scan's range"));
        }
        if !region.contains(key) {
            return Err(bad(key, "outside the region"));
        }
        if let Some((bound, inclusive)) = last {
            let after = match (scan.reversed, inclusive) {
                (false, true) => key >= bound,
                (false, false) => key > bound,
                (true, true) => key <= bound,
                (true, false) => key < bound,
            };
            if !after {
                return Err(bad(
                    key,
                    &format!(
                        "out of order: not after {} (repeated, or going back)",
                        crate::regions::binary(bound)
                    ),
                ));
            }
        }
        last = Some((key, false));
    }
    Ok(())
}

enum Delivered {
    Ok,
    LimitReached,
    ReceiverGone,
}

/// Sends a page's rows on, moving the position past each.
async fn deliver(
    page: &mut Page,
    at: &mut Position,
    pages: &mpsc::Sender<Result<Vec<RowResult>>>,
) -> Delivered {
    let mut rows = std::mem::take(&mut page.rows);
    if let Some(left) = at.left {
        rows.truncate(usize::try_from(left).unwrap_or(usize::MAX));
    }
    let Some(last) = rows.last() else {
        return Delivered::Ok;
    };
    at.key = last.row.clone();
    at.inclusive = false;
    let n = rows.len() as u64;
    if pages.send(Ok(rows)).await.is_err() {
        return Delivered::ReceiverGone;
    }
    if let Some(left) = &mut at.left {
        *left -= n;
        if *left == 0 {
            return Delivered::LimitReached;
        }
    }
    Delivered::Ok
}

/// The scan's columns, one `Column` per family: a family asked for whole
/// lists no qualifiers (HBase's way of saying all of them).
pub(crate) fn columns_of(columns: &[(Vec<u8>, Option<Vec<u8>>)]) -> Vec<proto::Column> {
    let mut out: Vec<proto::Column> = Vec::new();
    let mut whole: Vec<&[u8]> = Vec::new();
    for (family, qualifier) in columns {
        if qualifier.is_none() {
            whole.push(family);
        }
        match out.iter_mut().find(|c| &c.family == family) {
            Some(column) => column.qualifier.extend(qualifier.iter().cloned()),
            None => out.push(proto::Column {
                family: family.clone(),
                qualifier: qualifier.iter().cloned().collect(),
            }),
        }
    }
    for column in &mut out {
        if whole.contains(&column.family.as_slice()) {
            column.qualifier.clear();
        }
    }
    out
}
