//! The public ReadRows conformance cases (`tests/data/README.md` names
//! their source and licence), every one through the assembler twice:
//! keeping every cell the stream sends, compared with the case's results
//! exactly (rows, families, qualifiers, timestamps, values, labels,
//! errors), and as the [`Row`]s the store delivers, compared with the
//! newest version of each column (the first cell of each run of one
//! column in the results).

use super::{AssembledCell, AssembledRow, RowAssembler};
use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use bigtable_rs::google::bigtable::v2::read_rows_response::cell_chunk::RowStatus;
use bigtable_rs::google::bigtable::v2::read_rows_response::CellChunk;
use rowkey_store::{Cell, Row};
use serde::Deserialize;
use std::collections::VecDeque;

const CASES: &str = include_str!("../../tests/data/bigtable-readrows.json");

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Cases {
    read_rows_tests: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Case {
    description: String,
    chunks: Vec<JsonChunk>,
    /// Absent where the stream delivers nothing and is valid.
    #[serde(default)]
    results: Vec<JsonResult>,
}

/// A `CellChunk` as the cases write it: bytes in base64, the timestamp as
/// a decimal string.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct JsonChunk {
    row_key: Option<String>,
    family_name: Option<String>,
    qualifier: Option<String>,
    timestamp_micros: Option<String>,
    #[serde(default)]
    labels: Vec<String>,
    value: Option<String>,
    #[serde(default)]
    value_size: i32,
    commit_row: Option<bool>,
    reset_row: Option<bool>,
}

/// One expected cell (bytes as text), or the stream's error.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct JsonResult {
    row_key: Option<String>,
    family_name: Option<String>,
    qualifier: Option<String>,
    timestamp_micros: Option<String>,
    value: Option<String>,
    label: Option<String>,
    #[serde(default)]
    error: bool,
}

/// The cells of a stream, each with its row's key, and whether the stream
/// was refused (the cells before the refusal are kept).
#[derive(Debug, PartialEq)]
struct Outcome<C> {
    cells: Vec<(Vec<u8>, C)>,
    error: bool,
}

/// A row that keeps every cell the stream sends, as the cases list them.
struct AllVersions {
    key: Vec<u8>,
    cells: Vec<AssembledCell>,
}

impl AssembledRow for AllVersions {
    fn begin(key: Vec<u8>) -> Self {
        AllVersions {
            key,
            cells: Vec::new(),
        }
    }

    fn key(&self) -> &[u8] {
        &self.key
    }

    fn add(&mut self, cell: AssembledCell) {
        self.cells.push(cell);
    }

    fn last_column(&self) -> Option<(&str, &[u8])> {
        self.cells
            .last()
            .map(|c| (c.cell.family.as_str(), c.cell.qualifier.as_slice()))
    }
}

fn base64(text: &str) -> Vec<u8> {
    BASE64.decode(text).expect("the cases' bytes are base64")
}

fn timestamp(text: Option<&String>) -> i64 {
    text.map_or(0, |t| t.parse().expect("the cases' timestamps are decimal"))
}

impl JsonChunk {
    fn to_chunk(&self) -> CellChunk {
        let row_status = match (self.commit_row, self.reset_row) {
            (_, Some(reset)) => Some(RowStatus::ResetRow(reset)),
            (Some(commit), None) => Some(RowStatus::CommitRow(commit)),
            (None, None) => None,
        };
        CellChunk {
            row_key: self.row_key.as_deref().map(base64).unwrap_or_default(),
            family_name: self.family_name.clone(),
            qualifier: self.qualifier.as_deref().map(base64),
            timestamp_micros: timestamp(self.timestamp_micros.as_ref()),
            labels: self.labels.clone(),
            value: self.value.as_deref().map(base64).unwrap_or_default(),
            value_size: self.value_size,
            row_status,
        }
    }
}

impl Case {
    fn chunks(&self) -> Vec<CellChunk> {
        self.chunks.iter().map(JsonChunk::to_chunk).collect()
    }

    /// The case's results: every cell, and whether the stream is refused.
    fn expected(&self) -> Outcome<AssembledCell> {
        let bytes = |text: &Option<String>| text.as_deref().unwrap_or("").as_bytes().to_vec();
        let cells = self
            .results
            .iter()
            .filter(|r| !r.error)
            .map(|r| {
                let cell = Cell {
                    family: r.family_name.clone().unwrap_or_default(),
                    qualifier: bytes(&r.qualifier),
                    value: bytes(&r.value),
                };
                let assembled = AssembledCell {
                    cell,
                    timestamp_micros: timestamp(r.timestamp_micros.as_ref()),
                    labels: r.label.iter().cloned().collect(),
                };
                (bytes(&r.row_key), assembled)
            })
            .collect();
        let error = self.results.iter().any(|r| r.error);
        if error {
            assert!(
                self.results.last().is_some_and(|r| r.error),
                "{}: an error ends the results",
                self.description
            );
        }
        Outcome { cells, error }
    }

    /// The case's results as a row that keeps one value per column: the
    /// first cell of each run of one column.
    fn expected_newest(&self) -> Outcome<Cell> {
        let all = self.expected();
        let mut cells: Vec<(Vec<u8>, Cell)> = Vec::new();
        for (key, assembled) in all.cells {
            let older = cells.last().is_some_and(|(k, c)| {
                *k == key
                    && c.family == assembled.cell.family
                    && c.qualifier == assembled.cell.qualifier
            });
            if !older {
                cells.push((key, assembled.cell));
            }
        }
        Outcome {
            cells,
            error: all.error,
        }
    }
}

/// Runs `chunks` through an assembler of `R` rows, as one stream: a chunk
/// refused, or a stream that ends inside a row, is the stream's error.
fn assemble<R: AssembledRow>(chunks: Vec<CellChunk>) -> (Vec<R>, bool) {
    let mut assembler = RowAssembler::<R>::new(false);
    let mut rows = VecDeque::new();
    for chunk in chunks {
        if assembler.push(chunk, &mut rows).is_err() {
            return (rows.into(), true);
        }
    }
    // The reader treats a stream that ends inside a row as cut short.
    let error = assembler.in_row();
    (rows.into(), error)
}

fn cases() -> Vec<Case> {
    let cases: Cases = serde_json::from_str(CASES).expect("the conformance cases parse");
    assert_eq!(cases.read_rows_tests.len(), 48, "the file holds 48 cases");
    cases.read_rows_tests
}

/// Runs every case through the assembler building rows of `R`, each row
/// split into its key and cells by `split`, against `expected`.
fn check_every_case<R: AssembledRow, C: PartialEq + std::fmt::Debug>(
    split: impl Fn(R) -> (Vec<u8>, Vec<C>),
    expected: impl Fn(&Case) -> Outcome<C>,
) {
    let mut failed = Vec::new();
    let cases = cases();
    for case in &cases {
        let (rows, error) = assemble::<R>(case.chunks());
        let got = Outcome {
            cells: rows
                .into_iter()
                .flat_map(|r| {
                    let (key, cells) = split(r);
                    cells.into_iter().map(move |c| (key.clone(), c))
                })
                .collect(),
            error,
        };
        let expected = expected(case);
        if got != expected {
            failed.push(format!(
                "{}:\n  got      {got:?}\n  expected {expected:?}",
                case.description
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} cases pass; failed:\n{}",
        cases.len() - failed.len(),
        cases.len(),
        failed.join("\n")
    );
}

#[test]
fn every_case_every_version() {
    check_every_case(|r: AllVersions| (r.key, r.cells), Case::expected);
}

#[test]
fn every_case_as_rows_of_the_newest_versions() {
    check_every_case(|r: Row| (r.key, r.cells), Case::expected_newest);
}
