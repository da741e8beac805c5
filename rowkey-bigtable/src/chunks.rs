//! Rows from the cell chunks of a `ReadRows` response stream.
//!
//! Bigtable sends a row as chunks that may span several response
//! messages: the first chunk of a row carries its key, a chunk with a
//! family starts a new family, one with a qualifier a new cell, a cell's
//! value may be split over chunks (`value_size` set on all but the last),
//! and the row ends with `commit_row` (deliver it) or `reset_row` (drop
//! what came of it). bigtable_rs decodes each message on its own, which
//! loses rows split across messages; this keeps the state between them.

use bigtable_rs::google::bigtable::v2::read_rows_response::cell_chunk::RowStatus;
use bigtable_rs::google::bigtable::v2::read_rows_response::CellChunk;
use rowkey_core::store::{Cell, Row};
use rowkey_core::KeyDisplay;
use std::collections::VecDeque;

/// Assembles rows from chunks, checking the protocol as it goes.
#[derive(Debug, Default)]
pub(crate) struct RowAssembler {
    /// The row being read: its key and its finished cells.
    row: Option<Row>,
    /// The family of the cell being read (it carries over to later cells).
    family: Option<String>,
    /// The cell being read, until its last value chunk.
    cell: Option<Cell>,
    /// The key of the last row delivered: keys must increase (decrease,
    /// in a reversed read).
    last: Option<Vec<u8>>,
    reversed: bool,
}

impl RowAssembler {
    /// An assembler for a read in this direction.
    pub(crate) fn new(reversed: bool) -> Self {
        RowAssembler {
            reversed,
            ..RowAssembler::default()
        }
    }

    /// Takes one chunk; a committed row goes to `out`.
    pub(crate) fn push(&mut self, chunk: CellChunk, out: &mut VecDeque<Row>) -> Result<(), String> {
        // A chunk in the middle of a row may repeat the row's key.
        let continues = self.row.as_ref().is_some_and(|r| r.key == chunk.row_key);
        if !chunk.row_key.is_empty() && !continues {
            if self.row.is_some() {
                return Err(format!(
                    "chunk for row {} before row {} was committed",
                    KeyDisplay(&chunk.row_key),
                    KeyDisplay(self.row.as_ref().map_or(&[][..], |r| &r.key))
                ));
            }
            let reversed = self.reversed;
            let out_of_order = |last: &Vec<u8>| {
                if reversed {
                    chunk.row_key >= *last
                } else {
                    chunk.row_key <= *last
                }
            };
            if self.last.as_ref().is_some_and(out_of_order) {
                return Err(format!(
                    "row {} out of order after {}",
                    KeyDisplay(&chunk.row_key),
                    KeyDisplay(self.last.as_deref().unwrap_or_default())
                ));
            }
            self.row = Some(Row::new(chunk.row_key, Vec::new()));
            self.family = None;
        }
        if matches!(chunk.row_status, Some(RowStatus::ResetRow(true))) {
            self.row = None;
            self.cell = None;
            self.family = None;
            return Ok(());
        }
        let Some(row) = self.row.as_mut() else {
            return Err("chunk without a row key outside a row".into());
        };
        if let Some(family) = chunk.family_name {
            if chunk.qualifier.is_none() {
                return Err("a new family without a qualifier".into());
            }
            self.family = Some(family);
        }
        if let Some(qualifier) = chunk.qualifier {
            if self.cell.is_some() {
                return Err("a new cell began before the last value chunk of the previous".into());
            }
            let Some(family) = self.family.clone() else {
                return Err("a cell without a family".into());
            };
            self.cell = Some(Cell {
                family,
                qualifier,
                value: Vec::with_capacity(chunk.value_size.max(0) as usize),
            });
        }
        match self.cell.take() {
            Some(mut cell) => {
                cell.value.extend_from_slice(&chunk.value);
                if chunk.value_size > 0 {
                    self.cell = Some(cell);
                } else {
                    // Versions of a cell come newest first: keep the newest.
                    let older = row
                        .cells
                        .last()
                        .is_some_and(|c| c.family == cell.family && c.qualifier == cell.qualifier);
                    if !older {
                        row.cells.push(cell);
                    }
                }
            }
            None if !chunk.value.is_empty() => return Err("a value chunk outside a cell".into()),
            None => {}
        }
        if matches!(chunk.row_status, Some(RowStatus::CommitRow(true))) {
            if self.cell.is_some() {
                return Err("row committed in the middle of a cell value".into());
            }
            if let Some(row) = self.row.take() {
                self.last = Some(row.key.clone());
                out.push_back(row);
            }
        }
        Ok(())
    }

    /// Whether a row has begun and not been committed.
    pub(crate) fn in_row(&self) -> bool {
        self.row.is_some()
    }

    /// The key of the last committed row: a retry resumes after it.
    pub(crate) fn last(&self) -> Option<&[u8]> {
        self.last.as_deref()
    }

    /// Drops a row read only in part (its stream failed): a retried read
    /// resumes after the last committed row and reads this one again.
    pub(crate) fn discard_partial(&mut self) {
        self.row = None;
        self.cell = None;
        self.family = None;
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
        let mut a = RowAssembler::default();
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
        let mut a = RowAssembler::default();
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
        let mut a = RowAssembler::default();
        let mut out = VecDeque::new();
        a.push(chunk(b"r", Some("d"), Some(b"q"), b"1"), &mut out)
            .unwrap();
        a.push(commit(chunk(b"r", None, Some(b"s"), b"2")), &mut out)
            .unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].cells.len(), 2);
        let mut a = RowAssembler::default();
        assert!(a.push(chunk(b"r", Some("d"), None, b""), &mut out).is_err());
    }

    #[test]
    fn protocol_errors_are_errors() {
        let mut a = RowAssembler::default();
        let mut out = VecDeque::new();
        assert!(a.push(chunk(b"", None, None, b"v"), &mut out).is_err());
        a.push(commit(chunk(b"b", Some("d"), Some(b"q"), b"")), &mut out)
            .unwrap();
        assert!(a
            .push(chunk(b"a", Some("d"), Some(b"q"), b""), &mut out)
            .is_err());
        let mut a = RowAssembler::default();
        assert!(a
            .push(chunk(b"a", None, Some(b"q"), b""), &mut out)
            .is_err());
    }
}
