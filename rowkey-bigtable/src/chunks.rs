//! Rows from the cell chunks of a `ReadRows` response stream.
//!
//! Bigtable sends a row as chunks that may span several response
//! messages. The first chunk of a row carries its key, a family and a
//! qualifier. Every later chunk that is not the rest of a split value
//! starts a new cell: one with a family starts a new family (and must name
//! a qualifier), one with a qualifier a new column, and one with neither a
//! new version of the last column (older than the one before it: versions
//! come newest first). A cell's value may be split over chunks
//! (`value_size` set on all but the last). The row ends with `commit_row`
//! (deliver it) or `reset_row` (drop what came of it; a reset chunk
//! carries nothing else). bigtable_rs decodes each message on its own,
//! which loses rows split across messages; this keeps the state between
//! them.
//!
//! The protocol is checked against the public cross-language conformance
//! cases (`tests/data/bigtable-readrows.json`, run by the `conformance`
//! tests below), which hold the rules above.

use crate::target::MAX_MESSAGE_BYTES;
use bigtable_rs::google::bigtable::v2::read_rows_response::cell_chunk::RowStatus;
use bigtable_rs::google::bigtable::v2::read_rows_response::CellChunk;
use rowkey_core::KeyDisplay;
use rowkey_store::{Cell, Row};
use std::collections::VecDeque;

#[cfg(test)]
mod conformance;

/// One whole cell of a row, as the stream sent it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AssembledCell {
    pub(crate) cell: Cell,
    pub(crate) timestamp_micros: i64,
    pub(crate) labels: Vec<String>,
}

/// What a row keeps of the cells the stream sends for it.
pub(crate) trait AssembledRow {
    /// A row of `key` with no cells yet.
    fn begin(key: Vec<u8>) -> Self;
    /// The row's key.
    fn key(&self) -> &[u8];
    /// Takes the next whole cell of the row.
    fn add(&mut self, cell: AssembledCell);
    /// The family and qualifier of the last cell added, kept or not: a new
    /// version or a new qualifier carries them over.
    fn last_column(&self) -> Option<(&str, &[u8])>;
}

/// A [`Row`] holds one value per column: the newest version, which the
/// stream sends first. Timestamps and labels are not kept.
impl AssembledRow for Row {
    fn begin(key: Vec<u8>) -> Self {
        Row::new(key, Vec::new())
    }

    fn key(&self) -> &[u8] {
        &self.key
    }

    fn add(&mut self, assembled: AssembledCell) {
        let cell = assembled.cell;
        // Versions of a column are adjacent and come newest first: a cell
        // of the last cell's column is an older version, dropped.
        let older = self
            .cells
            .last()
            .is_some_and(|c| c.family == cell.family && c.qualifier == cell.qualifier);
        if !older {
            self.cells.push(cell);
        }
    }

    fn last_column(&self) -> Option<(&str, &[u8])> {
        // An older version dropped has the last kept cell's column.
        self.cells
            .last()
            .map(|c| (c.family.as_str(), c.qualifier.as_slice()))
    }
}

/// Assembles rows from chunks, checking the protocol as it goes.
#[derive(Debug)]
pub(crate) struct RowAssembler<R = Row> {
    /// The row being read: its key and its finished cells.
    row: Option<R>,
    /// The cell being read, until its last value chunk.
    cell: Option<AssembledCell>,
    /// The key of the last row delivered: keys must increase (decrease,
    /// in a reversed read).
    last: Option<Vec<u8>>,
    reversed: bool,
}

impl<R: AssembledRow> RowAssembler<R> {
    /// An assembler for a read in this direction.
    pub(crate) fn new(reversed: bool) -> Self {
        RowAssembler {
            row: None,
            cell: None,
            last: None,
            reversed,
        }
    }

    /// Takes one chunk; a committed row goes to `out`. A refused chunk
    /// ends the stream: the row it was part of is dropped.
    pub(crate) fn push(
        &mut self,
        mut chunk: CellChunk,
        out: &mut VecDeque<R>,
    ) -> Result<(), String> {
        if matches!(chunk.row_status, Some(RowStatus::ResetRow(true))) {
            return self.reset(&chunk);
        }
        let commit = matches!(chunk.row_status, Some(RowStatus::CommitRow(true)));
        let mut row = match self.row.take() {
            None => {
                self.check_new_row(&chunk)?;
                // The row takes the chunk's key: no copy.
                R::begin(std::mem::take(&mut chunk.row_key))
            }
            // A chunk in the middle of a row may repeat the row's key.
            Some(row) if chunk.row_key.is_empty() || chunk.row_key == row.key() => row,
            Some(row) => {
                return Err(format!(
                    "chunk for row {} before row {} was committed",
                    KeyDisplay(&chunk.row_key),
                    KeyDisplay(row.key())
                ))
            }
        };
        let cell = match self.cell.take() {
            Some(mut cell) => {
                // The rest of a split value names no cell of its own.
                if chunk.family_name.is_some()
                    || chunk.qualifier.is_some()
                    || chunk.timestamp_micros != 0
                    || !chunk.labels.is_empty()
                {
                    return Err("a chunk of a split value names a new cell".into());
                }
                cell.cell.value.extend_from_slice(&chunk.value);
                cell
            }
            None => {
                let (family, qualifier) = match (chunk.family_name, chunk.qualifier) {
                    (Some(family), Some(qualifier)) => (family, qualifier),
                    (Some(_), None) => return Err("a new family without a qualifier".into()),
                    (None, qualifier) => {
                        let Some((family, last)) = row.last_column() else {
                            return Err("a cell without a family".into());
                        };
                        // Without a qualifier: a new version of the last
                        // column.
                        let qualifier = qualifier.unwrap_or_else(|| last.to_vec());
                        (family.to_owned(), qualifier)
                    }
                };
                let value = if chunk.value_size == 0 {
                    // The whole value: the cell takes it, no copy.
                    std::mem::take(&mut chunk.value)
                } else {
                    // The first part of a split value; `value_size` is the
                    // whole value's size: reserve it, but no more than a
                    // message may carry, whatever it claims.
                    let size = usize::try_from(chunk.value_size).unwrap_or(0);
                    let mut value =
                        Vec::with_capacity(size.min(MAX_MESSAGE_BYTES).max(chunk.value.len()));
                    value.extend_from_slice(&chunk.value);
                    value
                };
                AssembledCell {
                    cell: Cell {
                        family,
                        qualifier,
                        value,
                    },
                    timestamp_micros: chunk.timestamp_micros,
                    labels: chunk.labels,
                }
            }
        };
        if chunk.value_size > 0 {
            if commit {
                return Err("row committed in the middle of a cell value".into());
            }
            self.cell = Some(cell);
        } else {
            row.add(cell);
        }
        if commit {
            // The last key's buffer is reused: no allocation per row.
            match &mut self.last {
                Some(last) => {
                    last.clear();
                    last.extend_from_slice(row.key());
                }
                None => self.last = Some(row.key().to_vec()),
            }
            out.push_back(row);
        } else {
            self.row = Some(row);
        }
        Ok(())
    }

    /// Checks the first chunk of a new row: it has a key, after the last
    /// row's, and names its first cell.
    fn check_new_row(&self, chunk: &CellChunk) -> Result<(), String> {
        if chunk.row_key.is_empty() {
            return Err("chunk without a row key outside a row".into());
        }
        if chunk.family_name.is_none() || chunk.qualifier.is_none() {
            return Err(format!(
                "row {} begins without a family and a qualifier",
                KeyDisplay(&chunk.row_key)
            ));
        }
        let out_of_order = |last: &Vec<u8>| {
            if self.reversed {
                chunk.row_key >= *last
            } else {
                chunk.row_key <= *last
            }
        };
        if self.last.as_ref().is_some_and(out_of_order) {
            return Err(self.out_of_order(&chunk.row_key));
        }
        Ok(())
    }

    /// Why `key` may not come next: keys of a read strictly increase
    /// (decrease, reversed), rows and scanned keys alike.
    fn out_of_order(&self, key: &[u8]) -> String {
        let order = if self.reversed {
            "decreasing"
        } else {
            "increasing"
        };
        format!(
            "row keys must be strictly {order}: {} came after {}",
            KeyDisplay(key),
            KeyDisplay(self.last.as_deref().unwrap_or_default())
        )
    }

    /// The server scanned up to `key` and found no more rows to return
    /// there (`last_scanned_row_key`): a retry resumes after it, and no
    /// row may come at or before it. Refused in the middle of a row.
    pub(crate) fn scanned(&mut self, key: &[u8]) -> Result<(), String> {
        if self.row.is_some() {
            return Err("a last scanned row key in the middle of a row".into());
        }
        let out_of_order = |last: &Vec<u8>| {
            if self.reversed {
                key >= last.as_slice()
            } else {
                key <= last.as_slice()
            }
        };
        if self.last.as_ref().is_some_and(out_of_order) {
            return Err(self.out_of_order(key));
        }
        self.last = Some(key.to_vec());
        Ok(())
    }

    /// Drops the row being read, on a chunk that says so.
    fn reset(&mut self, chunk: &CellChunk) -> Result<(), String> {
        // A reset says only that: a key, a value or labels beside it would
        // be a cell the stream means to drop and keep at once.
        if !chunk.row_key.is_empty()
            || chunk.family_name.is_some()
            || chunk.qualifier.is_some()
            || chunk.timestamp_micros != 0
            || !chunk.labels.is_empty()
            || !chunk.value.is_empty()
            || chunk.value_size != 0
        {
            return Err("a reset chunk that also carries a cell".into());
        }
        if self.row.is_none() {
            return Err("a reset outside a row".into());
        }
        self.discard_partial();
        Ok(())
    }

    /// Whether a row has begun and not been committed.
    pub(crate) fn in_row(&self) -> bool {
        self.row.is_some()
    }

    /// The key of the last committed row, or the last key the server said
    /// it scanned past: a retry resumes after it.
    pub(crate) fn last(&self) -> Option<&[u8]> {
        self.last.as_deref()
    }

    /// Drops a row read only in part (its stream failed): a retried read
    /// resumes after the last committed row and reads this one again.
    pub(crate) fn discard_partial(&mut self) {
        self.row = None;
        self.cell = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(key: &[u8], family: Option<&str>, q: Option<&[u8]>, value: &[u8]) -> CellChunk {
        CellChunk {
            row_key: key.to_vec(),
            family_name: family.map(str::to_string),
            qualifier: q.map(<[u8]>::to_vec),
            value: value.to_vec(),
            ..CellChunk::default()
        }
    }

    fn commit(mut c: CellChunk) -> CellChunk {
        c.row_status = Some(RowStatus::CommitRow(true));
        c
    }

    #[test]
    fn rows_across_messages_with_split_values() {
        let mut a = RowAssembler::<Row>::new(false);
        let mut out = VecDeque::new();
        let mut first = chunk(b"r1", Some("d"), Some(b"q"), b"hel");
        first.value_size = 5;
        a.push(first, &mut out).unwrap();
        assert!(out.is_empty());
        // The next message carries the rest of the value.
        a.push(chunk(b"", None, None, b"lo"), &mut out).unwrap();
        a.push(commit(chunk(b"", None, Some(b"r"), b"x")), &mut out)
            .unwrap();
        a.push(commit(chunk(b"r2", Some("e"), Some(b"q"), b"y")), &mut out)
            .unwrap();
        let rows: Vec<Row> = out.into_iter().collect();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].value("d", "q"), Some(&b"hello"[..]));
        assert_eq!(rows[0].value("d", "r"), Some(&b"x"[..]));
        assert_eq!(rows[1].value("e", "q"), Some(&b"y"[..]));
    }

    #[test]
    fn reset_drops_the_row_and_older_versions_are_skipped() {
        let mut a = RowAssembler::<Row>::new(false);
        let mut out = VecDeque::new();
        a.push(chunk(b"r1", Some("d"), Some(b"q"), b"a"), &mut out)
            .unwrap();
        let mut reset = chunk(b"", None, None, b"");
        reset.row_status = Some(RowStatus::ResetRow(true));
        a.push(reset, &mut out).unwrap();
        a.push(chunk(b"r1", Some("d"), Some(b"q"), b"new"), &mut out)
            .unwrap();
        a.push(commit(chunk(b"", None, Some(b"q"), b"old")), &mut out)
            .unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].cells.len(), 1);
        assert_eq!(out[0].value("d", "q"), Some(&b"new"[..]));
    }

    #[test]
    fn a_repeated_row_key_continues_the_row() {
        let mut a = RowAssembler::<Row>::new(false);
        let mut out = VecDeque::new();
        a.push(chunk(b"r", Some("d"), Some(b"q"), b"1"), &mut out)
            .unwrap();
        a.push(commit(chunk(b"r", None, Some(b"s"), b"2")), &mut out)
            .unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].cells.len(), 2);
        let mut a = RowAssembler::<Row>::new(false);
        assert!(a.push(chunk(b"r", Some("d"), None, b""), &mut out).is_err());
    }

    #[test]
    fn protocol_errors_are_errors() {
        let mut a = RowAssembler::<Row>::new(false);
        let mut out = VecDeque::new();
        assert!(a.push(chunk(b"", None, None, b"v"), &mut out).is_err());
        a.push(commit(chunk(b"b", Some("d"), Some(b"q"), b"")), &mut out)
            .unwrap();
        assert!(a
            .push(chunk(b"a", Some("d"), Some(b"q"), b""), &mut out)
            .is_err());
        let mut a = RowAssembler::<Row>::new(false);
        assert!(a
            .push(chunk(b"a", None, Some(b"q"), b""), &mut out)
            .is_err());
    }
}
