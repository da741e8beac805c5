//! Scanners kept open between reads of one range.
//!
//! A query reads each range a page at a time (`StoreExt::query` asks a
//! store for its rows in reads of a bounded size, each resuming after the
//! last row of the one before). Opening a scanner per page makes HBase's
//! Thrift server start a region scan per page, and caches only that
//! page's rows; measured on the ledger query, that costs the server about
//! twice the work of one scanner per range. So a read that stops at its
//! limit, its scanner positioned just after the rows it delivered, parks
//! the scanner here, keyed by what is left of its read; the next read of
//! exactly that (the query's next page) takes it and goes on.
//!
//! A parked scanner sees the table as of when it was opened. So every
//! write or delete through the client drops the parked scanners (before
//! it is sent and after it returns): a read that starts after a write of
//! this client returned never continues an older scanner. Writes of other
//! clients since it opened are not in it: a scanner is taken only while
//! younger than the store's `ParkedWalks::max_staleness` (none is parked
//! when that is zero). Scanners are parked for at most [`PARK_FOR`], well
//! within the server's scanner lease, and at most [`MAX_PARKED`] at once;
//! whatever leaves is closed.

use super::pool::ConnectionId;
use super::ScannerId;

/// An open scanner: its id, the connection it was opened on (the only
/// one where the id means this scanner) and the rows it caches per round
/// trip to the region server (set when it was opened; Thrift 1 cannot
/// change it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OpenScanner {
    pub(crate) id: ScannerId,
    pub(crate) on: ConnectionId,
    pub(crate) caching: u32,
}

impl OpenScanner {
    /// Whether a batch of `want` rows from it would cost the region
    /// server many trips (it caches under a quarter of them): one opened
    /// for a tiny read, asked for a large batch. A batch of under 16 rows
    /// never is.
    pub(crate) fn caches_too_few_for(&self, want: u32) -> bool {
        want >= 16 && want / 4 > self.caching
    }
}
use rowkey_core::scan::FuzzyFilter;
use rowkey_store::{CellSlice, Columns, KeyRange};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long a scanner stays parked.
pub(crate) const PARK_FOR: Duration = Duration::from_secs(20);
/// How many scanners may be parked at once.
pub(crate) const MAX_PARKED: usize = 256;

/// What is left of a read: its table, its ranges (sorted), direction,
/// fuzzy key and columns. Limits are not part of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ScanKey {
    pub(crate) table: String,
    pub(crate) ranges: Vec<KeyRange>,
    pub(crate) reversed: bool,
    pub(crate) fuzzy: Option<FuzzyFilter>,
    pub(crate) columns: Option<Columns>,
    pub(crate) cells: Option<CellSlice>,
}

struct Entry {
    key: ScanKey,
    scanner: OpenScanner,
    since: Instant,
}

/// The parked scanners of one client.
#[derive(Default)]
pub(crate) struct Parked {
    entries: Mutex<Vec<Entry>>,
}

impl Parked {
    /// Parks `scanner` under `key`; returns the scanners to close (the
    /// expired, and the oldest when over the cap).
    pub(crate) fn park(&self, key: ScanKey, scanner: OpenScanner) -> Vec<OpenScanner> {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out = expire(&mut entries);
        entries.push(Entry {
            key,
            scanner,
            since: Instant::now(),
        });
        while entries.len() > MAX_PARKED {
            out.push(entries.remove(0).scanner);
        }
        out
    }

    /// The scanner parked under `key` less than `max_age` ago, if any,
    /// and the scanners to close.
    pub(crate) fn take(
        &self,
        key: &ScanKey,
        max_age: Duration,
    ) -> (Option<OpenScanner>, Vec<OpenScanner>) {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let out = expire(&mut entries);
        let found = entries.iter().position(|e| e.key == *key);
        let found = found.map(|i| entries.remove(i));
        match found {
            Some(e) if e.since.elapsed() < max_age => (Some(e.scanner), out),
            // Too old for this read: closed.
            Some(e) => (None, [out, vec![e.scanner]].concat()),
            None => (None, out),
        }
    }

    /// Drops every parked scanner (a write or an admin call went by);
    /// returns them to close.
    pub(crate) fn clear(&self) -> Vec<OpenScanner> {
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries.drain(..).map(|e| e.scanner).collect()
    }
}

fn expire(entries: &mut Vec<Entry>) -> Vec<OpenScanner> {
    let mut out = Vec::new();
    entries.retain(|e| {
        let keep = e.since.elapsed() < PARK_FOR;
        if !keep {
            out.push(e.scanner);
        }
        keep
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(id: ScannerId) -> OpenScanner {
        OpenScanner {
            id,
            on: ConnectionId::for_tests(0),
            caching: 1,
        }
    }

    fn key(start: &str) -> ScanKey {
        ScanKey {
            table: "t".into(),
            ranges: vec![KeyRange::new(start, None)],
            reversed: false,
            fuzzy: None,
            columns: None,
            cells: None,
        }
    }

    #[test]
    fn a_parked_scanner_is_taken_once_and_a_write_drops_them_all() {
        let parked = Parked::default();
        assert!(parked.park(key("a"), open(1)).is_empty());
        assert!(parked.park(key("b"), open(2)).is_empty());
        assert_eq!(parked.take(&key("a"), PARK_FOR).0, Some(open(1)));
        assert_eq!(parked.take(&key("a"), PARK_FOR).0, None);
        assert_eq!(parked.clear(), [open(2)]);
        assert_eq!(parked.take(&key("b"), PARK_FOR).0, None);
    }

    #[test]
    fn a_scanner_opened_for_a_tiny_read_is_too_small_for_a_large_batch() {
        let tiny = OpenScanner {
            caching: 4,
            ..open(1)
        };
        assert!(tiny.caches_too_few_for(312));
        assert!(!tiny.caches_too_few_for(16), "a quarter fits");
        assert!(!tiny.caches_too_few_for(8), "small batches keep it");
        let page = OpenScanner {
            caching: 1000,
            ..open(2)
        };
        assert!(!page.caches_too_few_for(1000));
        assert!(!page.caches_too_few_for(4000), "a quarter fits");
        assert!(page.caches_too_few_for(4004));
    }

    #[test]
    fn a_scanner_older_than_the_read_allows_is_closed_not_taken() {
        let parked = Parked::default();
        assert!(parked.park(key("a"), open(1)).is_empty());
        std::thread::sleep(Duration::from_millis(5));
        let (found, close) = parked.take(&key("a"), Duration::from_millis(1));
        assert_eq!((found, close), (None, vec![open(1)]));
    }

    #[test]
    fn the_oldest_leave_over_the_cap() {
        let parked = Parked::default();
        for i in 0..MAX_PARKED as i32 {
            assert!(parked.park(key(&i.to_string()), open(i)).is_empty());
        }
        assert_eq!(parked.park(key("new"), open(9_999)), [open(0)]);
    }
}
