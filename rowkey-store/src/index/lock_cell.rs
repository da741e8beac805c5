//! A record's lock cell: its qualifier, and rows read without it; below
//! the lock itself, the writes and the unique claims that all meet it.

/// The lock cell's qualifier: a leading 0x00 keeps it apart from the
/// columns of derived records.
pub(crate) const LOCK_QUALIFIER: &[u8] = b"\x00rowkey.lock";

/// `row` without its lock cell; `None` when that was all it held (a
/// record's lock is taken before the record is written, and an
/// update's read sees it).
pub(crate) fn without_lock(mut row: crate::Row) -> Option<crate::Row> {
    row.cells.retain(|c| c.qualifier != LOCK_QUALIFIER);
    (!row.cells.is_empty()).then_some(row)
}
