//! What the client reads and writes: rows of cells, mutations of a row,
//! scans and their server-side filters.

/// A cell of a row: its column, value and version.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Cell {
    /// The column family.
    pub family: Vec<u8>,
    /// The qualifier.
    pub qualifier: Vec<u8>,
    /// The value.
    pub value: Vec<u8>,
    /// The version, in milliseconds.
    pub timestamp: u64,
}

/// A row as read: its key and its cells, in HBase's order (family,
/// qualifier).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct RowResult {
    /// The row key.
    pub row: Vec<u8>,
    /// Its cells.
    pub cells: Vec<Cell>,
}

/// A change of one row, applied all or nothing: its deletes (the whole
/// row, or the columns it clears) first, then its cells.
///
/// HBase orders a row's versions by timestamp, and a delete hides every
/// version at or before its own time. So with a timestamp `t`
/// ([`at`](Self::at)) the cells go at `t`, a delete of the row beside
/// them and a clear of a column the mutation also sets at `t - 1`, and a
/// clear of any other column at `t`.
/// Without one the server stamps everything at one time: a clear of a
/// column the mutation also sets is left out (the new value is the
/// newest version, what reads see), and a delete of the whole row with
/// cells to write is refused ([`Error::InvalidMutation`](crate::Error)),
/// as is a mutation that deletes and writes at timestamp 0.
///
/// ```
/// use hbase_native::RowMutation;
/// let m = RowMutation::put(b"row-1".to_vec())
///     .set(b"d", b"name", b"Ada")
///     .clear(b"d", b"nickname")
///     .at(1_700_000_000_000);
/// assert_eq!(m.puts.len(), 1);
/// assert_eq!(m.timestamp, Some(1_700_000_000_000));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct RowMutation {
    /// The row key.
    pub row: Vec<u8>,
    /// The version every cell and delete of it gets; `None`: the server's
    /// clock.
    pub timestamp: Option<u64>,
    /// Cells to write: (family, qualifier, value).
    pub puts: Vec<(Vec<u8>, Vec<u8>, Vec<u8>)>,
    /// Columns to delete (every version at or before the timestamp):
    /// (family, qualifier).
    pub clears: Vec<(Vec<u8>, Vec<u8>)>,
    /// Delete the whole row (every version at or before the timestamp).
    pub delete_row: bool,
}

impl RowMutation {
    /// A put of no cells yet to `row` (add them with [`set`](Self::set)).
    pub fn put(row: Vec<u8>) -> Self {
        RowMutation {
            row,
            ..RowMutation::default()
        }
    }

    /// A delete of the whole `row`.
    pub fn delete_row(row: Vec<u8>) -> Self {
        RowMutation {
            row,
            delete_row: true,
            ..RowMutation::default()
        }
    }

    /// The same mutation writing one more cell.
    pub fn set(mut self, family: &[u8], qualifier: &[u8], value: &[u8]) -> Self {
        self.puts
            .push((family.to_vec(), qualifier.to_vec(), value.to_vec()));
        self
    }

    /// The same mutation deleting one more column.
    pub fn clear(mut self, family: &[u8], qualifier: &[u8]) -> Self {
        self.clears.push((family.to_vec(), qualifier.to_vec()));
        self
    }

    /// The same mutation at version `timestamp` (milliseconds).
    pub fn at(mut self, timestamp: u64) -> Self {
        self.timestamp = Some(timestamp);
        self
    }

    /// About how many bytes it sends.
    pub fn size(&self) -> usize {
        self.row.len()
            + self
                .puts
                .iter()
                .map(|(f, q, v)| f.len() + q.len() + v.len() + 16)
                .sum::<usize>()
            + self
                .clears
                .iter()
                .map(|(f, q)| f.len() + q.len() + 16)
                .sum::<usize>()
    }
}

/// A filter the region servers apply before rows reach the client.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Filter {
    /// HBase's `FuzzyRowFilter`: rows whose key matches one of the
    /// (key, mask) pairs, where a mask byte of 0 fixes the key's byte at
    /// that position and 1 leaves it free (HBase's own mask convention).
    /// Keys longer than a pair's key match on the pair's length.
    ///
    /// HBase 2.6.1 misses rows with it in reversed scans (HBASE-28634):
    /// [`Scan::validate`] refuses the two together.
    Fuzzy(Vec<(Vec<u8>, Vec<u8>)>),
    /// HBase's `MultiRowRangeFilter`: rows in one of the ranges
    /// `[start, stop)` (an empty stop: no end).
    RowRanges(Vec<(Vec<u8>, Vec<u8>)>),
    /// Rows whose key a Java regular expression finds a match in
    /// (`RowFilter` with a `RegexStringComparator`, `Matcher.find`:
    /// anchor it with `^` and `$` to match the whole key). The key is read
    /// as ISO-8859-1, so each byte is one character: `\\x00`-`\\xff` name
    /// bytes. It cannot skip ahead as `Fuzzy` and `RowRanges` do: the
    /// servers read every row of the scan's range.
    KeyRegex(String),
    /// Only the first cell of each row (`FirstKeyOnlyFilter`): to list keys.
    FirstKeyOnly,
    /// Only the cells whose qualifier is in one of the ranges
    /// `[start, stop)` (`None`: no end): HBase's `ColumnRangeFilter`, one
    /// per range (several in a `FilterList` that passes a cell in any).
    /// The servers seek from range to range within a row. A row left with
    /// no cell is not returned. [`Scan::validate`] refuses an empty list.
    ColumnRanges(Vec<(Vec<u8>, Option<Vec<u8>>)>),
    /// Rows that pass every filter.
    All(Vec<Filter>),
}

/// What a point read ([`Client::get_with`](crate::Client::get_with)) reads
/// of each row: its columns, a filter the region servers apply to its
/// cells (a row filter drops the row), at most so many cells a family.
///
/// ```
/// use hbase_native::{Filter, Get};
/// let get = Get::columns(vec![(b"t".to_vec(), None)])
///     .filter(Filter::ColumnRanges(vec![(b"a".to_vec(), Some(b"m".to_vec()))]))
///     .cells_per_family(100);
/// assert_eq!(get.cells_per_family, Some(100));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct Get {
    /// Only these columns: (family, qualifier); a `None` qualifier takes
    /// the whole family. Empty: every column.
    pub columns: Vec<(Vec<u8>, Option<Vec<u8>>)>,
    /// Applied on the region servers.
    pub filter: Option<Filter>,
    /// At most this many cells of each family of a row, the first in
    /// qualifier order of those the columns and filter keep.
    pub cells_per_family: Option<u32>,
}

impl Get {
    /// Every cell of `columns` (none: every column).
    pub fn columns(columns: Vec<(Vec<u8>, Option<Vec<u8>>)>) -> Self {
        Get {
            columns,
            ..Get::default()
        }
    }

    /// The same read with `filter` applied on the servers.
    pub fn filter(mut self, filter: Filter) -> Self {
        self.filter = Some(filter);
        self
    }

    /// The same read returning at most `n` cells of each family.
    pub fn cells_per_family(mut self, n: u32) -> Self {
        self.cells_per_family = Some(n);
        self
    }
}

/// What a scan reads: the rows in `[start, stop)` (an empty stop: to the
/// table's end), forward or reversed, with a filter and a limit.
///
/// ```
/// use hbase_native::Scan;
/// let scan = Scan::range(b"a".to_vec(), b"m".to_vec()).reversed().limit(10).family(b"d");
/// assert!(scan.reversed && scan.limit == Some(10));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct Scan {
    /// The first row (inclusive).
    pub start: Vec<u8>,
    /// The end (exclusive); empty: the table's end.
    pub stop: Vec<u8>,
    /// Newest key first: from just before `stop` down to `start`.
    pub reversed: bool,
    /// Only these columns: (family, qualifier); a `None` qualifier takes
    /// the whole family. Empty: every column.
    pub columns: Vec<(Vec<u8>, Option<Vec<u8>>)>,
    /// Applied on the region servers.
    pub filter: Option<Filter>,
    /// At most this many rows in all.
    pub limit: Option<u64>,
    /// Rows asked for per round trip (default 1,000).
    pub caching: u32,
    /// At most this many cells of each family of a row, the first in
    /// qualifier order of those the columns and filter keep (HBase's
    /// `maxResultsPerColumnFamily`, the scan's `store_limit`): how a read
    /// takes a slice of a wide row. `None`: every cell.
    pub cells_per_family: Option<u32>,
}

impl Scan {
    /// Every row of the table.
    pub fn all() -> Self {
        Scan {
            caching: 1000,
            ..Scan::default()
        }
    }

    /// The rows in `[start, stop)`.
    pub fn range(start: Vec<u8>, stop: Vec<u8>) -> Self {
        Scan {
            start,
            stop,
            ..Scan::all()
        }
    }

    /// The same scan, newest key first.
    pub fn reversed(mut self) -> Self {
        self.reversed = true;
        self
    }

    /// The same scan stopping after `n` rows.
    pub fn limit(mut self, n: u64) -> Self {
        self.limit = Some(n);
        self
    }

    /// The same scan reading `family` too (all of it).
    pub fn family(mut self, family: &[u8]) -> Self {
        self.columns.push((family.to_vec(), None));
        self
    }

    /// The same scan reading the column `family:qualifier` too.
    pub fn column(mut self, family: &[u8], qualifier: &[u8]) -> Self {
        self.columns
            .push((family.to_vec(), Some(qualifier.to_vec())));
        self
    }

    /// The same scan with `filter` applied on the servers.
    pub fn filter(mut self, filter: Filter) -> Self {
        self.filter = Some(filter);
        self
    }

    /// The same scan returning at most the first `n` cells of each family
    /// of a row (see [`cells_per_family`](Self::cells_per_family)).
    pub fn cells_per_family(mut self, n: u32) -> Self {
        self.cells_per_family = Some(n);
        self
    }

    /// The same scan asking for `n` rows a round trip (0 is taken as 1).
    pub fn caching(mut self, n: u32) -> Self {
        self.caching = n.max(1);
        self
    }

    /// Whether HBase can run the scan exactly: a reversed scan with a
    /// fuzzy filter misses rows on HBase 2.6.1 (HBASE-28634).
    pub fn validate(&self) -> Result<(), String> {
        fn has_fuzzy(f: &Filter) -> bool {
            match f {
                Filter::Fuzzy(_) => true,
                Filter::All(fs) => fs.iter().any(has_fuzzy),
                _ => false,
            }
        }
        fn no_column_range(f: &Filter) -> bool {
            match f {
                Filter::ColumnRanges(r) => r.is_empty(),
                Filter::All(fs) => fs.iter().any(no_column_range),
                _ => false,
            }
        }
        if self.filter.as_ref().is_some_and(no_column_range) {
            return Err(
                "a ColumnRanges filter with no range: HBase would pass every cell \
                 through an empty FilterList; read nothing instead"
                    .into(),
            );
        }
        if self.reversed && self.filter.as_ref().is_some_and(has_fuzzy) {
            return Err(
                "a reversed scan with a FuzzyRowFilter misses rows on HBase 2.6.1 \
                        (HBASE-28634): filter reversed scans on the client"
                    .into(),
            );
        }
        if !self.stop.is_empty() && self.stop < self.start {
            return Err(format!(
                "the scan's stop {:02x?} is before its start {:02x?}",
                self.stop, self.start
            ));
        }
        Ok(())
    }
}
