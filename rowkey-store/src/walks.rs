//! Walks kept open between pages: [`ParkedWalks`], and the [`WriteEpoch`]
//! that tells when one has gone stale.
//!
//! A page of a salted plan needs the next rows of every bucket. Asked
//! afresh for each page, every bucket is read again from the cursor on
//! each page: 32 requests a page for a plan of 32 buckets, and on the
//! Bigtable emulator each request gathers the rest of its bucket first.
//! So [`page`](crate::StoreExt::page) parks its query when it is done,
//! under the cursor it gives out; the page given that cursor back takes
//! the query and goes on, with its buffers and look-ahead row, and reads
//! ahead a little more each page. A walk then costs about one query, not
//! one query per page.
//!
//! A parked walk of a gRPC store holds rows, never open reads: the page
//! waits for its reads in flight to deliver before it parks (a stream
//! left unread would hold the connection's flow-control window, and its
//! deadline would run between pages). A store whose reads hold nothing
//! of a connection while unpolled (HBase's pool jobs, MemStore) parks
//! them open ([`ParkedWalks::with_open_reads`]). No parked walk holds its
//! store, which holds the walks: dropping every handle of a store drops
//! what it parked.
//!
//! A parked query holds rows read before the next page is asked for. So
//! a walk is parked only while no write of the store's client happened
//! since its page began (the [`WriteEpoch`], moved by every write and
//! delete before it is sent and after it returns or is dropped): a page
//! asked for after a write of this client returned always reads afresh,
//! as it always did. Writes by other clients are seen as by any read
//! (there is no snapshot; see [`page`](crate::StoreExt::page)).
//!
//! At most [`MAX_PARKED`] walks are parked at once per store handle, each
//! taken for at most [`PARK_FOR`] (or what
//! [`ParkedWalks::set_max_staleness`] sets); they are dropped when a later page of
//! the handle parks or takes one, or with the handle.

use rowkey_core::scan::Cursor;
use std::any::Any;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long a walk stays parked.
pub(crate) const PARK_FOR: Duration = Duration::from_secs(20);
/// How many walks one store handle keeps parked at once.
pub(crate) const MAX_PARKED: usize = 16;

/// Counts the writes of one client, shared by the stores made from it
/// (rowkey-bigtable: a store, its clones and `for_table`; rowkey-hbase:
/// every store of one `HBaseClient`). A write moves it when it starts and
/// again when it ends (returns, fails or is dropped), through a
/// [`WriteGuard`]. Writes it does not see (another client, another
/// process) are seen by pages as by any read: not within a walk.
#[derive(Debug, Default)]
pub struct WriteEpoch(AtomicU64);

impl WriteEpoch {
    /// A new count, shared by the stores it is given to.
    pub fn new() -> Arc<Self> {
        Arc::default()
    }

    /// Marks a write as started; the guard marks it ended when dropped.
    /// Hold it across the whole write.
    pub fn writing(self: &Arc<Self>) -> WriteGuard {
        self.0.fetch_add(1, Ordering::SeqCst);
        WriteGuard(Arc::clone(self))
    }

    fn now(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// A write in progress; see [`WriteEpoch::writing`].
#[derive(Debug)]
#[must_use = "a write is marked as ended when the guard is dropped"]
pub struct WriteGuard(Arc<WriteEpoch>);

impl Drop for WriteGuard {
    fn drop(&mut self) {
        self.0 .0.fetch_add(1, Ordering::SeqCst);
    }
}

struct Entry {
    cursor: Cursor,
    epoch: u64,
    since: Instant,
    walk: Box<dyn Any + Send>,
}

/// The walks a store handle keeps parked between pages.
///
/// [`page`](crate::StoreExt::page) parks its query when it is done, under
/// the cursor it gives out; the page given that cursor back goes on with
/// it (its reads, buffers and look-ahead row) instead of asking every
/// range again, and reads ahead a little more each page. A walk is parked
/// only while no write of the store's client went by since its page
/// began ([`WriteEpoch`]), for at most 20 seconds, and at most 16 walks
/// per handle. A parked walk holds rows (at most 10,000) and, unless made
/// [`with_open_reads`](Self::with_open_reads), no open read; and not its
/// store: dropping every handle drops what it parked.
///
/// A store that has one returns it from
/// [`Store::parked_walks`](crate::Store::parked_walks); its clones share
/// it.
///
/// ```
/// use rowkey::store::{ParkedWalks, WriteEpoch};
/// let epoch = WriteEpoch::new();
/// let walks = ParkedWalks::new(epoch.clone());
/// assert_eq!(walks.len(), 0);
/// let _write = epoch.writing(); // held across each write of the client
/// ```
pub struct ParkedWalks {
    epoch: Arc<WriteEpoch>,
    entries: Mutex<Vec<Entry>>,
    /// Reads in flight are finished before a walk parks.
    settles: bool,
    /// How long a walk may be gone on with, in milliseconds (0: never
    /// parked).
    max_staleness_ms: AtomicU64,
}

impl ParkedWalks {
    /// No walks parked yet; stale once `epoch` moves. A page waits for
    /// its reads in flight to deliver before it parks, so a parked walk
    /// holds rows, never open reads: right for a store whose unread
    /// streams hold a connection's resources (a gRPC stream's flow-control
    /// window, a deadline running between pages).
    pub fn new(epoch: Arc<WriteEpoch>) -> Self {
        ParkedWalks {
            epoch,
            entries: Mutex::new(Vec::new()),
            settles: true,
            max_staleness_ms: AtomicU64::new(PARK_FOR.as_millis() as u64),
        }
    }

    /// [`new`](Self::new), for a store whose reads in flight hold nothing
    /// of a connection while nobody polls them (each a request that runs
    /// to its end on its own, its rows waiting for the caller): a walk
    /// parks with them, and the next page finds them done.
    pub fn with_open_reads(epoch: Arc<WriteEpoch>) -> Self {
        ParkedWalks {
            settles: false,
            ..Self::new(epoch)
        }
    }

    /// How far behind the table a page may be: a walk parked longer ago
    /// is not gone on with (20 s unless set).
    pub fn max_staleness(&self) -> Duration {
        Duration::from_millis(self.max_staleness_ms.load(Ordering::Relaxed))
    }

    /// Sets how far behind the table a page may be: a page that goes on
    /// with a parked walk shows what the walk read ahead, so writes of
    /// *other* clients made since (up to this long ago) may be missing
    /// from it and rows they deleted still there. `Duration::ZERO` turns
    /// parking off: every page reads the table as it is when it is read.
    /// Shared by the store's clones; a store with parked scanners of its
    /// own (HBase) holds them to it too.
    ///
    /// ```
    /// use rowkey::store::{MemStore, Store};
    /// use std::time::Duration;
    /// let store = MemStore::new();
    /// if let Some(walks) = store.parked_walks() {
    ///     walks.set_max_staleness(Duration::ZERO); // every page reads afresh
    ///     assert_eq!(walks.max_staleness(), Duration::ZERO);
    /// }
    /// ```
    pub fn set_max_staleness(&self, max: Duration) {
        let ms = u64::try_from(max.as_millis()).unwrap_or(u64::MAX);
        self.max_staleness_ms.store(ms, Ordering::Relaxed);
        if ms == 0 {
            drop(std::mem::take(&mut *self.lock()));
        }
    }

    /// Whether a page finishes its reads in flight before it parks.
    pub(crate) fn settles(&self) -> bool {
        self.settles
    }

    /// How many walks are parked (stale and expired ones included until
    /// the next park or take drops them).
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no walk is parked.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Marks a write of the client as started, until the guard drops
    /// ([`WriteEpoch::writing`]).
    pub fn writing(&self) -> WriteGuard {
        self.epoch.writing()
    }

    /// Where the client's writes are now: a page records it before it
    /// reads, and parks its walk only if it has not moved since.
    pub(crate) fn epoch(&self) -> u64 {
        self.epoch.now()
    }

    /// Parks `walk` under `cursor`, unless a write went by since `epoch`.
    pub(crate) fn park<T: Send + 'static>(&self, cursor: Cursor, epoch: u64, walk: T) {
        if self.epoch() != epoch || self.max_staleness().is_zero() {
            return;
        }
        let dropped = {
            let mut entries = self.lock();
            let mut dropped = expire(&mut entries, self.epoch(), self.max_staleness());
            entries.push(Entry {
                cursor,
                epoch,
                since: Instant::now(),
                walk: Box::new(walk),
            });
            while entries.len() > MAX_PARKED {
                dropped.push(entries.remove(0));
            }
            dropped
        };
        // Dropped outside the lock: dropping a walk closes its reads.
        drop(dropped);
    }

    /// The walk parked under `cursor` (taken: a cursor given back twice
    /// reads afresh the second time), if it is a `T` and no write went by
    /// since it was parked (so it carries on from the epoch as it is).
    pub(crate) fn take<T: Send + 'static>(&self, cursor: &Cursor) -> Option<T> {
        let (found, dropped) = {
            let mut entries = self.lock();
            let dropped = expire(&mut entries, self.epoch(), self.max_staleness());
            let found = entries
                .iter()
                .position(|e| e.cursor == *cursor && e.walk.is::<T>())
                .map(|i| entries.remove(i));
            (found, dropped)
        };
        drop(dropped);
        let walk = found?.walk.downcast::<T>().ok()?;
        Some(*walk)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Entry>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Takes out the entries parked `max` ago or longer, or before a write.
fn expire(entries: &mut Vec<Entry>, epoch: u64, max: Duration) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < entries.len() {
        if entries[i].epoch != epoch || entries[i].since.elapsed() >= max {
            out.push(entries.remove(i));
        } else {
            i += 1;
        }
    }
    out
}

impl fmt::Debug for ParkedWalks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ParkedWalks")
            .field("parked", &self.len())
            .field("epoch", &self.epoch())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rowkey_core::scan::{Resume, ScanPlan};

    fn cursor(after: &[u8]) -> Cursor {
        let plan = ScanPlan::<8>::from_bounds(b"a", Some(b"z")).unwrap();
        let resume = Resume::new(&plan, None, 1).unwrap();
        resume
            .page(vec![after.to_vec()], true)
            .unwrap()
            .next
            .unwrap()
    }

    #[test]
    fn a_walk_is_taken_once_by_its_cursor_and_type() {
        let walks = ParkedWalks::new(WriteEpoch::new());
        let e = walks.epoch();
        walks.park(cursor(b"b"), e, 1u32);
        walks.park(cursor(b"c"), e, 2u32);
        assert_eq!(walks.take::<u64>(&cursor(b"b")), None, "another type");
        assert_eq!(walks.take::<u32>(&cursor(b"b")), Some(1));
        assert_eq!(walks.take::<u32>(&cursor(b"b")), None, "taken once");
        assert_eq!(walks.len(), 1);
    }

    #[test]
    fn a_write_makes_every_walk_stale_and_stops_one_parking() {
        let epoch = WriteEpoch::new();
        let walks = ParkedWalks::new(epoch.clone());
        let before = walks.epoch();
        walks.park(cursor(b"b"), before, 1u32);
        let write = epoch.writing();
        // Parked during the write (its page began before it): refused.
        walks.park(cursor(b"c"), before, 2u32);
        let during = walks.epoch();
        drop(write);
        // Its page began while the write was on: stale once it ended.
        walks.park(cursor(b"d"), during, 3u32);
        assert_eq!(walks.take::<u32>(&cursor(b"b")), None);
        assert_eq!(walks.take::<u32>(&cursor(b"c")), None);
        assert_eq!(walks.take::<u32>(&cursor(b"d")), None);
        assert!(walks.is_empty(), "stale walks are dropped");
    }

    #[test]
    fn the_oldest_leave_over_the_cap() {
        let walks = ParkedWalks::new(WriteEpoch::new());
        let e = walks.epoch();
        for i in 0..=MAX_PARKED as u8 {
            walks.park(cursor(&[b'b', i]), e, u32::from(i));
        }
        assert_eq!(walks.len(), MAX_PARKED);
        assert_eq!(walks.take::<u32>(&cursor(&[b'b', 0])), None);
        assert_eq!(walks.take::<u32>(&cursor(&[b'b', 1])), Some(1));
    }
}
