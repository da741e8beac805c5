//! [`StoreError`]: why a store operation failed, precisely.

use core::fmt;
use rowkey_core::layout::{Fingerprint, LayoutDiff};
use rowkey_core::scan::InvalidCursor;
use rowkey_core::{EncodeError, KeyDisplay};

/// A boxed error from a store's client.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Why a store operation failed.
///
/// Every variant names the operation; key errors name the key (as
/// `toStringBinary` shows it) and the limit; backend failures say whether
/// they were transient and how many attempts were made.
///
/// A backend failure's message ends with the backend's own error, the
/// last cause (`store failed to read rows after 5 attempts: transport
/// error`), so that a log of the message alone says why. Its
/// [`source`](std::error::Error::source) is then that error's own source,
/// not the error again, so that a report that walks the chain (anyhow's
/// `{:#}`, tracing's error fields) prints each cause once (as thiserror's
/// `transparent` does). [`backend_source`](Self::backend_source) gives
/// the backend's error itself, to downcast to the client's type
/// (`tonic::Status` for Bigtable) and look at its code. Key and cursor
/// errors are shown as they are: `Display` and `source` are theirs.
///
/// ```
/// use rowkey::store::StoreError;
/// let e = StoreError::KeyTooLong { op: "write rows", key: vec![b'a'; 5000], len: 5000, max: 4096, store: "Bigtable" };
/// assert!(e.to_string().starts_with("cannot write rows: key of 5000 bytes exceeds Bigtable's 4096-byte row key limit"));
/// assert!(!e.is_transient());
///
/// let e = StoreError::backend("read rows", "connection reset");
/// assert_eq!(e.to_string(), "store failed to read rows: connection reset");
/// assert_eq!(e.backend_source().unwrap().to_string(), "connection reset");
/// // The cause is in the message, so the chain does not repeat it.
/// assert!(std::error::Error::source(&e).is_none());
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum StoreError {
    /// A typed key could not be encoded.
    Encode(EncodeError),
    /// An empty row key: no store accepts one (Bigtable and HBase both
    /// refuse it), so every store here refuses it the same way.
    EmptyKey {
        /// What was being done: "write rows", "read row".
        op: &'static str,
    },
    /// A key longer than the store allows, refused before it was sent.
    KeyTooLong {
        /// What was being done.
        op: &'static str,
        /// The key (its first 64 bytes are shown).
        key: Vec<u8>,
        /// Its length.
        len: usize,
        /// The store's limit.
        max: usize,
        /// Whose limit: "Bigtable", "HBase".
        store: &'static str,
    },
    /// A row to write with neither cells nor columns to clear: Bigtable
    /// stores no row without cells, so no store here writes one.
    NoCells {
        /// The row's key.
        key: Vec<u8>,
    },
    /// A row with more cells than one write request carries (Bigtable:
    /// 100,000 mutations), refused before anything was sent: its cells
    /// cannot be split without losing the row's all-or-nothing write.
    TooManyCells {
        /// The row's key.
        key: Vec<u8>,
        /// Its cells and the columns it clears (a mutation each).
        cells: usize,
        /// The most one request carries.
        max: usize,
    },
    /// The store's client or server failed.
    Backend {
        /// What was being done: "read rows", "mutate rows", "create table".
        op: &'static str,
        /// Whether the failure was transient (a cut stream, UNAVAILABLE,
        /// DEADLINE_EXCEEDED, a stall): retried already, `attempts` times.
        transient: bool,
        /// How many attempts were made (1: not retried).
        attempts: u32,
        /// The client's error.
        source: BoxError,
    },
    /// A write whose request may have reached the server, and failed in a
    /// way that does not say whether it was applied (a deadline passed, the
    /// connection broke after the request was sent, the server went away
    /// mid-call). It was not sent where it could be applied a second time
    /// (a copy delivered late could undo a later write, a conditional
    /// write would be checked against itself, a counter would count twice),
    /// so it was applied at most once. Read the row to see what it holds;
    /// write it again only if no later write to it may have been made.
    OutcomeUnknown {
        /// What was being done: "delete rows", "mutate rows".
        op: &'static str,
        /// How many attempts were made (the last is the one whose outcome
        /// is unknown).
        attempts: u32,
        /// The client's error of the last attempt.
        source: BoxError,
    },
    /// An index row without the cell that holds its main row's key
    /// (`i:k`): the table read as an index is not one, or the row was
    /// written by other means.
    NotAnIndexRow {
        /// The index row's key.
        key: Vec<u8>,
    },
    /// A main row that does not read back as its record
    /// ([`Record::from_row`](crate::Record::from_row) failed), or a record
    /// update that would move the record to another main row.
    BadRecord {
        /// What was being done: "join an index hit", "update a record".
        op: &'static str,
        /// The main row's key.
        key: Vec<u8>,
        /// Why.
        source: BoxError,
    },
    /// The table does not exist on the server: refused, never retried.
    NoSuchTable {
        /// What was being done.
        op: &'static str,
        /// The table, as the store names it.
        table: String,
    },
    /// A column family the table does not have: refused, never retried.
    NoSuchFamily {
        /// What was being done.
        op: &'static str,
        /// The table.
        table: String,
        /// The family the operation named.
        family: String,
    },
    /// A query through an index the table was not given
    /// ([`IndexedTable::with_index`](crate::IndexedTable::with_index)).
    NoSuchIndex {
        /// The index key's type, as its layout names it.
        index: &'static str,
    },
    /// A blocking call made on a thread that runs an async runtime, where
    /// blocking would stall (or deadlock) the runtime. Use the async store.
    InsideAsyncRuntime {
        /// What was being done.
        op: &'static str,
    },
    /// A page's cursor that the plan did not give out, or that was changed
    /// on the way back: refused before anything is read.
    InvalidCursor(InvalidCursor),
    /// A record of a bulk load that cannot be written (its key does not
    /// encode, a key is over a table's limit, its row has no cells),
    /// refused before any row of its batch is written: which record of
    /// the input, its key's fields, and why.
    InputRecord {
        /// Its position in the input, counting from 0.
        position: u64,
        /// Its key's fields as `name=value`, comma-separated (the main
        /// row's key, as the layout decodes it), or why they cannot be
        /// shown (a key that does not encode: `error` names the field).
        key: String,
        /// Why it cannot be written.
        error: Box<StoreError>,
    },
    /// A guarded table whose rows were written with a layout that does
    /// not read as the key's: refused before anything is read or written
    /// ([`CheckedTable`](crate::CheckedTable)).
    LayoutMismatch {
        /// The table, as the registry names it.
        table: String,
        /// The recorded layout's fingerprint.
        recorded: Fingerprint,
        /// The key type's name.
        key: &'static str,
        /// What changed, and what it does to the table's rows.
        diff: Box<LayoutDiff>,
    },
    /// A registry row that is not a layout rowkey recorded.
    BadLayoutRecord {
        /// The table whose record it is.
        table: String,
        /// Why it cannot be read.
        why: String,
    },
    /// An operation the store (or its transport) cannot do in one atomic
    /// step, refused before anything was sent rather than emulated: a
    /// conditional write or a read-modify-write beyond what the backend
    /// applies atomically.
    Unsupported {
        /// What was being done: "check and write", "read-modify-write".
        op: &'static str,
        /// The store, or the store and transport: "HBase's Thrift 1 gateway".
        store: &'static str,
        /// What it cannot do.
        what: String,
        /// Which store or transport can, if any.
        supported_by: Option<&'static str>,
    },
    /// A request that no store can carry out as asked (a conditional
    /// write with no edit, a read-modify-write with no rule), refused
    /// before anything was sent.
    InvalidRequest {
        /// What was being done.
        op: &'static str,
        /// The row's key.
        key: Vec<u8>,
        /// Why.
        why: String,
    },
    /// A record whose key in a unique index is another record's: refused
    /// before its main row was written.
    DuplicateIndexKey {
        /// The unique index, as its key's layout names it.
        index: &'static str,
        /// The index key.
        key: Vec<u8>,
        /// The main row key of the record that has it.
        existing: Vec<u8>,
        /// The main row key of the record refused.
        refused: Vec<u8>,
    },
    /// An increment of a cell whose value is not an 8-byte counter: the
    /// cell is left as it is.
    NotACounter {
        /// The row's key.
        key: Vec<u8>,
        /// The cell's family.
        family: String,
        /// The cell's qualifier.
        qualifier: Vec<u8>,
        /// Its value's length in bytes.
        len: usize,
    },
}

impl StoreError {
    /// A permanent backend failure during `op`.
    pub fn backend(op: &'static str, source: impl Into<BoxError>) -> Self {
        StoreError::Backend {
            op,
            transient: false,
            attempts: 1,
            source: source.into(),
        }
    }

    /// A transient backend failure during `op` (worth retrying).
    pub fn transient(op: &'static str, source: impl Into<BoxError>) -> Self {
        StoreError::Backend {
            op,
            transient: true,
            attempts: 1,
            source: source.into(),
        }
    }

    /// A write during `op` whose request may have been applied: see
    /// [`OutcomeUnknown`](Self::OutcomeUnknown).
    ///
    /// ```
    /// use rowkey::store::StoreError;
    /// let e = StoreError::outcome_unknown("delete rows", "connection reset");
    /// assert!(e.is_outcome_unknown() && !e.is_transient());
    /// assert!(e.to_string().contains("whether it was applied is unknown"), "{e}");
    /// assert_eq!(e.backend_source().unwrap().to_string(), "connection reset");
    /// ```
    pub fn outcome_unknown(op: &'static str, source: impl Into<BoxError>) -> Self {
        StoreError::OutcomeUnknown {
            op,
            attempts: 1,
            source: source.into(),
        }
    }

    /// Whether the operation may have been applied though it failed
    /// ([`OutcomeUnknown`](Self::OutcomeUnknown)).
    pub fn is_outcome_unknown(&self) -> bool {
        matches!(self, StoreError::OutcomeUnknown { .. })
    }

    /// Whether retrying the operation may succeed.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            StoreError::Backend {
                transient: true,
                ..
            }
        )
    }

    /// The same error, recording that `attempts` attempts were made.
    pub fn after_attempts(mut self, n: u32) -> Self {
        if let StoreError::Backend { attempts, .. } | StoreError::OutcomeUnknown { attempts, .. } =
            &mut self
        {
            *attempts = n;
        }
        self
    }

    /// The backend's own error, of a [`Backend`](Self::Backend) (or
    /// [`OutcomeUnknown`](Self::OutcomeUnknown)) failure:
    /// downcast it to the client's type (`tonic::Status` for Bigtable,
    /// [`TableMismatch`](crate::admin::TableMismatch) for a table of
    /// other families). Its message ends this error's message, so
    /// [`source`](std::error::Error::source) skips it.
    pub fn backend_source(&self) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        match self {
            StoreError::Backend { source, .. } | StoreError::OutcomeUnknown { source, .. } => {
                Some(source.as_ref())
            }
            _ => None,
        }
    }

    /// The operation that failed.
    pub fn op(&self) -> &'static str {
        match self {
            StoreError::Encode(_) => "encode a key",
            StoreError::InvalidCursor(_) => "read a page",
            StoreError::LayoutMismatch { .. } | StoreError::BadLayoutRecord { .. } => {
                "open a checked table"
            }
            StoreError::NoCells { .. } | StoreError::TooManyCells { .. } => "write rows",
            StoreError::NotAnIndexRow { .. } => "join an index hit",
            StoreError::InputRecord { .. } => "load records",
            StoreError::NoSuchIndex { .. } => "query an index",
            StoreError::NotACounter { .. } => "increment",
            StoreError::DuplicateIndexKey { .. } => "write a record",
            StoreError::EmptyKey { op }
            | StoreError::KeyTooLong { op, .. }
            | StoreError::Backend { op, .. }
            | StoreError::OutcomeUnknown { op, .. }
            | StoreError::BadRecord { op, .. }
            | StoreError::NoSuchTable { op, .. }
            | StoreError::NoSuchFamily { op, .. }
            | StoreError::InsideAsyncRuntime { op }
            | StoreError::Unsupported { op, .. }
            | StoreError::InvalidRequest { op, .. } => op,
        }
    }
}

/// At most this many bytes of a key go into a message.
const SHOWN: usize = 64;

fn shown(key: &[u8]) -> String {
    let head = KeyDisplay(&key[..key.len().min(SHOWN)]).to_string();
    if key.len() > SHOWN {
        head + "..."
    } else {
        head
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Encode(e) => fmt::Display::fmt(e, f),
            StoreError::EmptyKey { op } => write!(
                f,
                "cannot {op}: the row key is empty; Bigtable and HBase refuse empty keys \
                 (a layout of only raw or unpadded text fields encodes empty values to one)"
            ),
            StoreError::KeyTooLong {
                op,
                key,
                len,
                max,
                store,
            } => write!(
                f,
                "cannot {op}: key of {len} bytes exceeds {store}'s {max}-byte row key limit \
                 (key {})",
                shown(key)
            ),
            StoreError::NoCells { key } => write!(
                f,
                "cannot write rows: row {} has no cells and clears no column; a row needs at least one of either",
                shown(key)
            ),
            StoreError::TooManyCells { key, cells, max } => write!(
                f,
                "cannot write rows: row {} has {cells} cells, more than one write request \
                 carries ({max} mutations)",
                shown(key)
            ),
            StoreError::Backend {
                op,
                transient,
                attempts,
                source,
            } => {
                write!(f, "store failed to {op}")?;
                match (transient, attempts) {
                    (true, n) if *n > 1 => write!(f, " after {n} attempts")?,
                    (true, _) => write!(f, " (transient)")?,
                    _ => {}
                }
                write!(f, ": {source}")
            }
            StoreError::OutcomeUnknown {
                op,
                attempts,
                source,
            } => {
                write!(f, "store failed to {op}")?;
                if *attempts > 1 {
                    write!(f, " after {attempts} attempts")?;
                }
                write!(
                    f,
                    ", and whether it was applied is unknown: the request may have reached \
                     the server, and it was not sent where it could be applied a second time \
                     (it was applied at most once): {source}"
                )
            }
            StoreError::NotAnIndexRow { key } => write!(
                f,
                "cannot join an index hit: index row {} has no cell i:k holding its main row's key",
                shown(key)
            ),
            StoreError::BadRecord { op, key, .. } => {
                write!(f, "cannot {op} at main row {}", shown(key))
            }
            StoreError::NoSuchIndex { index } => write!(
                f,
                "cannot query an index: the table has no index {index} (give it one with `with_index::<{index}>`)"
            ),
            StoreError::NoSuchTable { op, table } => {
                write!(f, "cannot {op}: table {table:?} does not exist")
            }
            StoreError::NoSuchFamily { op, table, family } => write!(
                f,
                "cannot {op}: table {table:?} has no column family {family:?}"
            ),
            StoreError::InsideAsyncRuntime { op } => write!(
                f,
                "cannot {op}: a blocking store was called from inside an async runtime, \
                 where blocking would stall it; use the async store there"
            ),
            StoreError::InvalidCursor(e) => fmt::Display::fmt(e, f),
            StoreError::InputRecord {
                position,
                key,
                error,
            } => write!(
                f,
                "cannot load records: record {position} of the input (counting from 0; key \
                 {key}): {error}"
            ),
            StoreError::LayoutMismatch {
                table,
                recorded,
                key,
                diff,
            } => write!(
                f,
                "cannot open table {table:?} checked: its rows were written with layout \
                 {recorded}, which does not read as {key}'s ({}):\n{diff}",
                diff.new_fingerprint
            ),
            StoreError::BadLayoutRecord { table, why } => write!(
                f,
                "cannot open table {table:?} checked: its layout record is not one rowkey \
                 wrote: {why}"
            ),
            StoreError::Unsupported {
                op,
                store,
                what,
                supported_by,
            } => {
                write!(
                    f,
                    "cannot {op}: {store} cannot {what} in one atomic step, and it is not \
                     emulated; nothing was sent"
                )?;
                match supported_by {
                    Some(other) => write!(f, " ({other} can)"),
                    None => Ok(()),
                }
            }
            StoreError::DuplicateIndexKey {
                index,
                key,
                existing,
                refused,
            } => write!(
                f,
                "cannot write the record at main row {}: unique index {index} already holds key \
                 {} for the record at main row {}; nothing of it was written",
                shown(refused),
                shown(key),
                shown(existing)
            ),
            StoreError::InvalidRequest { op, key, why } => {
                write!(f, "cannot {op} row {}: {why}", shown(key))
            }
            StoreError::NotACounter {
                key,
                family,
                qualifier,
                len,
            } => write!(
                f,
                "cannot increment cell {family}:{} of row {}: its value has {len} bytes, \
                 not the 8 of a big-endian counter; it is left as it is",
                KeyDisplay(qualifier),
                shown(key)
            ),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            // Shown as they are (thiserror's `transparent`): their
            // message is this one, so their source is this one's.
            StoreError::Encode(e) => e.source(),
            StoreError::InvalidCursor(e) => e.source(),
            // Its message ends with the record's error's.
            StoreError::InputRecord { error, .. } => error.source(),
            // Its message ends with the backend's error's: the chain goes
            // on from that error's source (`backend_source` gives it).
            StoreError::Backend { source, .. } | StoreError::OutcomeUnknown { source, .. } => {
                source.source()
            }
            StoreError::BadRecord { source, .. } => Some(source.as_ref()),
            _ => None,
        }
    }
}

impl From<InvalidCursor> for StoreError {
    fn from(e: InvalidCursor) -> Self {
        StoreError::InvalidCursor(e)
    }
}

impl From<EncodeError> for StoreError {
    fn from(e: EncodeError) -> Self {
        StoreError::Encode(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error;

    /// A client's error with a cause of its own, as tonic's transport
    /// errors have.
    #[derive(Debug)]
    struct Transport(std::io::Error);

    impl fmt::Display for Transport {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("transport error")
        }
    }

    impl Error for Transport {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&self.0)
        }
    }

    /// With the emulator gone the user saw only "store failed to read
    /// rows after 5 attempts": the last cause is in the message now, and
    /// a report that walks the chain says each cause once.
    #[test]
    fn a_backend_failure_says_its_last_cause_once() {
        let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        let e = StoreError::transient("read rows", Transport(refused)).after_attempts(5);
        assert_eq!(
            e.to_string(),
            "store failed to read rows after 5 attempts: transport error"
        );
        let mut report = e.to_string();
        let mut next = e.source();
        while let Some(cause) = next {
            report = format!("{report}: {cause}");
            next = cause.source();
        }
        assert_eq!(
            report,
            "store failed to read rows after 5 attempts: transport error: refused"
        );
        let transport = e
            .backend_source()
            .and_then(|s| s.downcast_ref::<Transport>());
        assert_eq!(
            transport.map(|t| t.0.kind()),
            Some(std::io::ErrorKind::ConnectionRefused)
        );
        assert!(StoreError::EmptyKey { op: "read row" }
            .backend_source()
            .is_none());
    }
}
