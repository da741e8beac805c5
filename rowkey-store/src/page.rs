//! [`StoreExt::page`](crate::StoreExt::page): one keyset page, and the
//! walk it parks for the page after it (see [`ParkedWalks`]).

use crate::{ParkedWalks, QueryOptions, QueryStream, Row, Store, StoreError, StoreExt};
use futures_core::Stream;
use rowkey_core::scan::{Cursor, Page, Resume, ScanPlan};
use std::pin::Pin;

/// A walk parked between pages: its query, the look-ahead row it read
/// past its page (the next page's first), and the rows its pages returned.
struct Walk<S> {
    query: QueryStream<S>,
    next: Row,
    returned: u64,
}

/// What a page goes on with: a parked walk, or a fresh read of its plan.
enum Source<S> {
    Walk(Walk<S>),
    Fresh(QueryStream<S>),
}

/// The rows a walk's query may hold or have asked for on a page after
/// its first: four times what the walk has returned, at least the first page's
/// budget, at most a query's buffer. A walk reads ahead more the longer it
/// goes, so it asks each range about `log(rows)` times, not once a page,
/// and it never has read more than about five times what it returned.
fn walk_budget(returned: u64, want: usize, ranges: usize) -> usize {
    let first = 2 * (want + 1) + 2 * ranges;
    let grown = usize::try_from(returned.saturating_mul(4)).unwrap_or(usize::MAX);
    grown
        .max(first)
        .min(QueryOptions::default().buffer_rows.max(first))
}

pub(crate) async fn page<S: Store, const N: usize>(
    store: S,
    resumed: Result<Resume<N>, StoreError>,
    limited: bool,
    cursor: Option<Cursor>,
) -> Result<Page<Row>, StoreError> {
    let resumed = resumed?;
    let want = resumed.want();
    if want == 0 {
        return Ok(resumed.page(Vec::new(), false)?);
    }
    // A plan with its own limit reads as a limited query each page (the
    // limit left caps it): nothing to park.
    let walks = store.parked_walks().filter(|_| !limited);
    // Where the client's writes are as this page begins to read: a walk
    // taken now is one parked at this same epoch.
    let epoch = walks.map(ParkedWalks::epoch);
    let taken = match (walks, &cursor) {
        (Some(walks), Some(cursor)) => walks.take::<Walk<S>>(cursor),
        _ => None,
    };
    let ranges = resumed.plan().len();
    let mut source = match taken {
        Some(mut walk) => {
            walk.query.attach(store.clone());
            walk.query
                .continue_walk(walk_budget(walk.returned, want, ranges));
            Source::Walk(walk)
        }
        // One row more than the page tells whether another page follows.
        None => {
            let plan: ScanPlan<N> = resumed.plan().clone().with_limit(want.saturating_add(1));
            Source::Fresh(match walks {
                Some(_) => QueryStream::walk(store.clone(), &plan),
                None => store.query(&plan),
            })
        }
    };
    let (query, mut first, returned) = match &mut source {
        Source::Walk(w) => (&mut w.query, Some(std::mem::take(&mut w.next)), w.returned),
        Source::Fresh(q) => (q, None, 0),
    };
    // What the query had read before this page: a parked walk's reads
    // for earlier pages are theirs.
    let before = query.cost();
    let mut rows = Vec::with_capacity(want.min(1024));
    let mut next = None;
    loop {
        let row = match first.take() {
            Some(row) => Some(Ok(row)),
            None => std::future::poll_fn(|cx| Pin::new(&mut *query).poll_next(cx)).await,
        };
        let Some(row) = row else { break };
        // The look-ahead row only tells that more follow: an error there
        // is the next page's to report.
        if rows.len() == want {
            next = Some(row);
            break;
        }
        rows.push(row?);
    }
    let more = next.is_some();
    let returned = returned + rows.len() as u64;
    let mut page = resumed.page(rows, more)?;
    page.cost = query.cost() - before;
    if let (Some(walks), Some(epoch), Some(cursor), Some(Ok(next))) =
        (walks, epoch, &page.next, next)
    {
        let mut query = match source {
            Source::Walk(w) => w.query,
            Source::Fresh(q) => q,
        };
        // Parked without the store; and with rows, not reads open, where
        // open reads would hold the connection. What settling reads is
        // this page's cost.
        let settled = !walks.settles() || query.settle().await.is_ok();
        page.cost = query.cost() - before;
        if !settled {
            return Ok(page);
        }
        query.detach();
        walks.park(
            cursor.clone(),
            epoch,
            Walk {
                query,
                next,
                returned,
            },
        );
    }
    Ok(page)
}
