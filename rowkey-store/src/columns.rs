//! [`Columns`]: the cells a read asks for.

use core::fmt;
use rowkey_core::KeyDisplay;

/// A set of columns (`family:qualifier`), sorted and without repeats: a
/// read restricted to them ([`ReadRequest::with_columns`](crate::ReadRequest::with_columns))
/// returns only those cells of each row, and no row that has none of them.
///
/// ```
/// use rowkey::store::Columns;
/// let c = Columns::new([("d", "v"), ("d", "site"), ("d", "v")]);
/// assert_eq!(c.len(), 2);
/// assert!(c.contains("d", b"site") && !c.contains("e", b"v"));
/// assert_eq!(format!("{c:?}"), "[d:site, d:v]");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Columns {
    columns: Vec<(String, Vec<u8>)>,
}

impl Columns {
    /// The columns `(family, qualifier)`.
    pub fn new<F: Into<String>, Q: AsRef<[u8]>>(columns: impl IntoIterator<Item = (F, Q)>) -> Self {
        let mut columns: Vec<(String, Vec<u8>)> = columns
            .into_iter()
            .map(|(f, q)| (f.into(), q.as_ref().to_vec()))
            .collect();
        columns.sort();
        columns.dedup();
        Columns { columns }
    }

    /// Whether `family:qualifier` is one of them.
    pub fn contains(&self, family: &str, qualifier: &[u8]) -> bool {
        self.columns
            .binary_search_by(|(f, q)| (f.as_str(), q.as_slice()).cmp(&(family, qualifier)))
            .is_ok()
    }

    /// The columns, sorted by family, then qualifier.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[u8])> + '_ {
        self.columns.iter().map(|(f, q)| (f.as_str(), q.as_slice()))
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.columns.len()
    }

    /// Whether there are none (a read restricted to none returns no row).
    pub fn is_empty(&self) -> bool {
        self.columns.is_empty()
    }
}

impl fmt::Debug for Columns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, (fam, q)) in self.columns.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{fam}:{}", KeyDisplay(q))?;
        }
        f.write_str("]")
    }
}
