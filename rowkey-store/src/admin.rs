//! What the stores' table admin APIs share (`rowkey_bigtable::BigtableAdmin`,
//! `rowkey_hbase::HBaseAdmin`): a table to create ([`TableSpec`]), what
//! creating it if missing found ([`TableStatus`]), and a table that exists
//! with other families ([`TableMismatch`]).

use rowkey_core::split::SplitKeys;
use std::collections::BTreeSet;
use std::fmt;

/// A table to create: its id, column families and split keys.
///
/// ```
/// use rowkey::store::admin::TableSpec;
/// use rowkey::split::SplitKeys;
/// let splits = SplitKeys::new([b"m".to_vec()]);
/// let spec = TableSpec::new("spend", &["d"]).splits(&splits);
/// assert_eq!(spec.table, "spend");
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct TableSpec<'a> {
    /// The table's id.
    pub table: &'a str,
    /// Column families to create.
    pub families: &'a [&'a str],
    /// Tablet boundaries (from `Key::split_keys()` or [`SplitKeys`]).
    pub splits: Option<&'a SplitKeys>,
}

impl<'a> TableSpec<'a> {
    /// A table with these families and no splits.
    pub fn new(table: &'a str, families: &'a [&'a str]) -> Self {
        TableSpec {
            table,
            families,
            splits: None,
        }
    }

    /// The same table, pre-split at `splits`.
    pub fn splits(mut self, splits: &'a SplitKeys) -> Self {
        self.splits = Some(splits);
        self
    }
}

/// What a `create_table_if_missing` found (Bigtable's, HBase's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableStatus {
    /// The table was missing and is now created, with the spec's families
    /// and split keys.
    Created,
    /// The table exists already with exactly the spec's column families.
    /// Its split keys are not known to match: neither Bigtable nor HBase's
    /// Thrift 1 gateway reports them.
    Existed,
}

/// A table that exists with other column families than its spec: the
/// source of the [`StoreError::Backend`](crate::StoreError::Backend) that a `create_table_if_missing`
/// returns then.
///
/// ```
/// use rowkey::store::admin::TableMismatch;
/// # fn check(e: &rowkey::store::StoreError) -> Option<Vec<String>> {
/// // Which families the spec asks for and the table lacks:
/// let missing = std::error::Error::source(e)
///     .and_then(|s| s.downcast_ref::<TableMismatch>())
///     .map(|m| m.missing_families.clone());
/// # missing }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TableMismatch {
    /// The table's id.
    pub table: String,
    /// Families in the spec that the table lacks, sorted.
    pub missing_families: Vec<String>,
    /// Families of the table that the spec lacks, sorted.
    pub extra_families: Vec<String>,
}

impl fmt::Display for TableMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "table {} exists with other column families than its spec:",
            self.table
        )?;
        if !self.missing_families.is_empty() {
            write!(
                f,
                " missing {} (in the spec, not the table)",
                self.missing_families.join(", ")
            )?;
        }
        if !self.missing_families.is_empty() && !self.extra_families.is_empty() {
            write!(f, ";")?;
        }
        if !self.extra_families.is_empty() {
            write!(
                f,
                " extra {} (in the table, not the spec)",
                self.extra_families.join(", ")
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for TableMismatch {}

impl TableMismatch {
    /// The mismatch between what `table` was asked to have and what it
    /// has; `None` when the families are the same.
    pub fn between<'a>(
        table: &str,
        wanted: impl IntoIterator<Item = &'a str>,
        found: impl IntoIterator<Item = &'a str>,
    ) -> Option<TableMismatch> {
        let wanted: BTreeSet<&str> = wanted.into_iter().collect();
        let found: BTreeSet<&str> = found.into_iter().collect();
        let mismatch = TableMismatch {
            table: table.to_string(),
            missing_families: wanted.difference(&found).map(|f| f.to_string()).collect(),
            extra_families: found.difference(&wanted).map(|f| f.to_string()).collect(),
        };
        (!mismatch.missing_families.is_empty() || !mismatch.extra_families.is_empty())
            .then_some(mismatch)
    }
}
