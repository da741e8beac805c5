//! One region's scanner: open it, page through it, close it; and the rows
//! of a `ScanResponse` (inline, or counted out of its cell block), with
//! rows the server split across results joined again.
//!
//! A scanner id belongs to the server that opened it; the callers never
//! send it anywhere else, and reopen after the last row they delivered
//! when it is lost.

use crate::error::{Error, Result};
use crate::proto;
use crate::servers::{Servers, CLIENT_SERVICE};
use crate::types::{Cell, RowResult};
use bytes::Bytes;

/// What one round trip of a scanner brought.
#[derive(Debug, Default)]
pub(crate) struct Page {
    /// Complete rows, in scan order.
    pub(crate) rows: Vec<RowResult>,
    /// The scanner is still open on the server.
    pub(crate) open: bool,
    /// The region has more rows for this scan (else: go to the next).
    pub(crate) more_in_region: bool,
    /// The scan has more rows at all (else: it reached its stop).
    pub(crate) more: bool,
}

/// A scanner open on one region of one server.
pub(crate) struct RegionScanner<'a> {
    cluster: &'a Servers,
    timeout: std::time::Duration,
    server: String,
    region: String,
    id: Option<u64>,
    next_seq: u64,
    /// Cells of a row the server has not finished sending.
    partial: Option<RowResult>,
}

impl<'a> RegionScanner<'a> {
    /// Opens `scan` on region `name` of `server`, asking for `rows` rows.
    pub(crate) async fn open(
        cluster: &'a Servers,
        timeout: std::time::Duration,
        server: &str,
        name: &[u8],
        scan: proto::Scan,
        rows: u32,
    ) -> Result<(RegionScanner<'a>, Page)> {
        let mut scanner = RegionScanner {
            cluster,
            timeout,
            server: server.to_owned(),
            region: crate::regions::binary(name),
            id: None,
            next_seq: 0,
            partial: None,
        };
        let request = proto::ScanRequest {
            region: Some(Servers::region(name)),
            scan: Some(scan),
            number_of_rows: Some(rows),
            close_scanner: Some(false),
            client_handles_partials: Some(true),
            client_handles_heartbeats: Some(true),
            ..Default::default()
        };
        let page = scanner.exchange(request).await?;
        Ok((scanner, page))
    }

    /// The next `rows` rows.
    pub(crate) async fn next(&mut self, rows: u32) -> Result<Page> {
        let Some(id) = self.id else {
            return Ok(Page::default());
        };
        let request = proto::ScanRequest {
            scanner_id: Some(id),
            number_of_rows: Some(rows),
            close_scanner: Some(false),
            next_call_seq: Some(self.next_seq),
            client_handles_partials: Some(true),
            client_handles_heartbeats: Some(true),
            ..Default::default()
        };
        self.next_seq += 1;
        self.exchange(request).await
    }

    /// Closes the scanner if the server still holds it (best effort: an
    /// unclosed scanner expires with its lease).
    pub(crate) async fn close(mut self) {
        if let Some(id) = self.id.take() {
            let request = proto::ScanRequest {
                scanner_id: Some(id),
                number_of_rows: Some(0),
                close_scanner: Some(true),
                ..Default::default()
            };
            let _ = self
                .cluster
                .call::<proto::ScanResponse>(
                    &self.server,
                    CLIENT_SERVICE,
                    "Scan",
                    &request,
                    self.timeout,
                )
                .await;
        }
    }

    async fn exchange(&mut self, request: proto::ScanRequest) -> Result<Page> {
        let (response, block) = self
            .cluster
            .call::<proto::ScanResponse>(
                &self.server,
                CLIENT_SERVICE,
                "Scan",
                &request,
                self.timeout,
            )
            .await
            .map_err(|e| match e {
                Error::Remote {
                    server,
                    call,
                    exception,
                    ..
                } => Error::Remote {
                    server,
                    region: Some(self.region.clone()),
                    call,
                    exception,
                },
                other => other,
            })?;
        if self.id.is_none() {
            self.id = response.scanner_id;
        }
        let more = response.more_results.unwrap_or(true);
        let heartbeat = response.heartbeat_message.unwrap_or(false);
        let results = results(&response, block, &self.server)?;
        let had_results = !results.is_empty();
        let mut rows = join_parts(&mut self.partial, results, heartbeat);
        // An older server leaves more_results_in_region out: a page with
        // rows (or a heartbeat) is then not the region's last.
        let more_in_region = more
            && response
                .more_results_in_region
                .unwrap_or(had_results || heartbeat);
        let open = more_in_region;
        if open && self.id.is_none() {
            // Else the next page would be taken as the scan's end, the
            // region's other rows silently missing.
            return Err(Error::protocol(
                &self.server,
                format!(
                    "a scan of region {} said the region has more rows, and named no \
                     scanner to ask for them",
                    self.region
                ),
            ));
        }
        if !open {
            // The server closes a scanner that has no more rows.
            self.id = None;
            if let Some(head) = self.partial.take() {
                rows.push(head);
            }
        }
        Ok(Page {
            rows,
            open,
            more_in_region,
            more,
        })
    }
}

/// Joins the parts of rows the server split (`partial`: the row so far)
/// into complete rows, as HBase's Java client does: a part flagged as
/// *maybe* not the last is held until the next part of another row, or an
/// answer with no rows that is no heartbeat, shows it was.
fn join_parts(
    partial: &mut Option<RowResult>,
    results: Vec<(RowResult, bool)>,
    heartbeat: bool,
) -> Vec<RowResult> {
    let had_results = !results.is_empty();
    let mut rows = Vec::with_capacity(results.len());
    for (row, more) in results {
        let row = match partial.take() {
            Some(mut head) if head.row == row.row => {
                head.cells.extend(row.cells);
                head
            }
            Some(head) => {
                rows.push(head);
                row
            }
            None => row,
        };
        if more {
            *partial = Some(row);
        } else {
            rows.push(row);
        }
    }
    if !had_results && !heartbeat {
        rows.extend(partial.take());
    }
    rows
}

/// The rows of a response, each with whether the server will send more
/// of its cells.
fn results(
    response: &proto::ScanResponse,
    mut block: Bytes,
    server: &str,
) -> Result<Vec<(RowResult, bool)>> {
    let mut out = Vec::new();
    if !response.cells_per_result.is_empty() {
        for (i, &count) in response.cells_per_result.iter().enumerate() {
            let cells = crate::wire::cells(&mut block, count as usize, server)?;
            let partial = response
                .partial_flag_per_result
                .get(i)
                .copied()
                .unwrap_or(false);
            let Some(row) = cells.first().map(|c| c.row.clone()) else {
                continue;
            };
            if cells.iter().any(|c| c.row != row) {
                return Err(Error::protocol(server, "one result's cells name two rows"));
            }
            out.push((
                RowResult {
                    row,
                    cells: cells.into_iter().map(|c| c.cell).collect(),
                },
                partial,
            ));
        }
        return Ok(out);
    }
    for (i, result) in response.results.iter().enumerate() {
        let partial = result.partial.unwrap_or(false)
            || response
                .partial_flag_per_result
                .get(i)
                .copied()
                .unwrap_or(false);
        if let Some(row) = inline_row(result, server)? {
            out.push((row, partial));
        }
    }
    Ok(out)
}

/// A result's inline cells as a row (`None`: no cells).
pub(crate) fn inline_row(result: &proto::Result, server: &str) -> Result<Option<RowResult>> {
    let Some(row) = result
        .cell
        .first()
        .map(|c| c.row.clone().unwrap_or_default())
    else {
        return Ok(None);
    };
    let mut cells = Vec::with_capacity(result.cell.len());
    for cell in &result.cell {
        if cell.row.as_deref().unwrap_or_default() != row.as_slice() {
            return Err(Error::protocol(server, "one result's cells name two rows"));
        }
        cells.push(Cell {
            family: cell.family.clone().unwrap_or_default(),
            qualifier: cell.qualifier.clone().unwrap_or_default(),
            value: cell.value.clone().unwrap_or_default(),
            timestamp: cell.timestamp.unwrap_or_default(),
        });
    }
    Ok(Some(RowResult { row, cells }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(row: &str, cells: &[&str]) -> RowResult {
        RowResult {
            row: row.as_bytes().to_vec(),
            cells: cells
                .iter()
                .map(|q| Cell {
                    qualifier: q.as_bytes().to_vec(),
                    ..Cell::default()
                })
                .collect(),
        }
    }

    fn keys(rows: &[RowResult]) -> Vec<(String, usize)> {
        rows.iter()
            .map(|r| (String::from_utf8_lossy(&r.row).into_owned(), r.cells.len()))
            .collect()
    }

    #[test]
    fn parts_of_a_row_join_across_answers_and_a_flag_is_only_a_maybe() {
        let mut partial = None;
        let rows = join_parts(
            &mut partial,
            vec![(part("a", &["1"]), false), (part("b", &["1"]), true)],
            false,
        );
        assert_eq!(keys(&rows), [("a".into(), 1)]);
        // A heartbeat with nothing: b may still have more.
        assert!(join_parts(&mut partial, vec![], true).is_empty());
        let rows = join_parts(&mut partial, vec![(part("b", &["2", "3"]), true)], false);
        assert!(rows.is_empty());
        // The next row shows b was whole.
        let rows = join_parts(&mut partial, vec![(part("c", &["1"]), false)], false);
        assert_eq!(keys(&rows), [("b".into(), 3), ("c".into(), 1)]);
        // An empty answer that is no heartbeat ends a held row too.
        join_parts(&mut partial, vec![(part("d", &["1"]), true)], false);
        assert_eq!(
            keys(&join_parts(&mut partial, vec![], false)),
            [("d".into(), 1)]
        );
        assert!(partial.is_none());
    }
}
