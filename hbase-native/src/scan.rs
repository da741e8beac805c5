//! A scan of a table, region by region: each region's scanner paged
//! through, the next region found from where the last one ended, and a
//! lost scanner (moved region, dead server, cut connection, expired
//! lease) reopened strictly after the last row delivered, as of the same
//! read point while in the same region. No row twice, none missed, in
//! order, across splits, merges and moves.
//!
//! A read point is a region's own: each region counts its writes' sequence
//! ids apart. A scanner reopened in another region (a daughter of a split,
//! the region a merge made, where the cached one has gone) starts afresh:
//! the read point of the region it left would hide every row the other
//! region wrote after that point (a merge's other half), lost rows that a
//! test of merges under reads found.

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
    /// The read point of the region being read (its name and the point),
    /// to reopen as of it in that same region only.
    read_point: Option<(Vec<u8>, u64)>,
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
        read_point: None,
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
                if failures >= policy.attempts {
                    return Err(Error::RetriesExhausted {
                        attempts: failures,
                        last: Box::new(e),
                    });
                }
                tokio::time::sleep(policy.backoff(failures)).await;
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
        allow_partial_results: Some(false),
        // As HBase's Java client asks: a page stops at about 2 MiB.
        max_result_size: Some(2 << 20),
        // Only the same region's read point means anything to it.
        mvcc_read_point: at
            .read_point
            .as_ref()
            .filter(|(name, _)| *name == region.name)
            .map(|&(_, point)| point),
        ..Default::default()
    };
    let rows = |left: Option<u64>| {
        left.map_or(scan.caching, |l| l.min(u64::from(scan.caching)) as u32)
            .max(1)
    };
    let (mut scanner, mut page) = RegionScanner::open(
        cluster,
        policy.call_timeout,
        &region.server,
        &region.name,
        request,
        rows(at.left),
    )
    .await?;
    if at
        .read_point
        .as_ref()
        .is_none_or(|(name, _)| *name != region.name)
    {
        at.read_point = page.read_point.map(|point| (region.name.clone(), point));
    }
    loop {
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
    // The region is read: on to the next, as of its own read point.
    at.read_point = None;
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
