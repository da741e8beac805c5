//! What the fake region servers send: answer frames, honest answers to
//! `Scan`, `Multi` and `Mutate` (the table holds rows `a`, `b`, `c`, each
//! one cell `d:q` = `v-ROW`), and `hbase:meta`'s rows.

use super::TABLE;
use crate::proto;
use crate::wire::put_cell;
use prost::Message;

/// The rows of the fake table.
pub(super) const ROWS: [&[u8]; 3] = [b"a", b"b", b"c"];
/// The id of every scanner the fake opens.
pub(super) const SCANNER: u64 = 7;

/// The value of a row's one cell.
pub(super) fn value(row: &[u8]) -> Vec<u8> {
    [b"v-", row].concat()
}

/// An answer's message and cell block, and the cell block length its
/// header claims (`None`: the block's own).
#[derive(Default)]
pub(super) struct Reply {
    pub(super) message: Vec<u8>,
    pub(super) cells: Vec<u8>,
    pub(super) claimed_cells: Option<u32>,
}

impl Reply {
    pub(super) fn of(message: &impl Message, cells: Vec<u8>) -> Reply {
        Reply {
            message: message.encode_to_vec(),
            cells,
            claimed_cells: None,
        }
    }
}

/// An answer frame: its length, its `ResponseHeader`, its message and
/// its cell block, as a region server writes it.
pub(super) fn frame(call_id: u32, reply: &Reply) -> Vec<u8> {
    let length = reply.claimed_cells.unwrap_or(reply.cells.len() as u32);
    let header = proto::ResponseHeader {
        call_id: Some(call_id),
        exception: None,
        cell_block_meta: (length > 0).then_some(proto::CellBlockMeta {
            length: Some(length),
        }),
    };
    let mut body = header.encode_length_delimited_to_vec();
    prost::encoding::encode_varint(reply.message.len() as u64, &mut body);
    body.extend_from_slice(&reply.message);
    body.extend_from_slice(&reply.cells);
    with_length(body)
}

/// `ExceptionResponse` with its trace as bytes: a server may send one
/// that is no UTF-8, which the crate's own `string` field cannot carry.
#[derive(Clone, PartialEq, prost::Message)]
struct RawException {
    #[prost(string, optional, tag = "1")]
    class: Option<String>,
    #[prost(bytes = "vec", optional, tag = "2")]
    trace: Option<Vec<u8>>,
    #[prost(bool, optional, tag = "5")]
    do_not_retry: Option<bool>,
}

/// `ResponseHeader` with a [`RawException`].
#[derive(Clone, PartialEq, prost::Message)]
struct RawHeader {
    #[prost(uint32, optional, tag = "1")]
    call_id: Option<u32>,
    #[prost(message, optional, tag = "2")]
    exception: Option<RawException>,
}

/// A frame answering call `call_id` with an exception: its class (none
/// at all, if `None`), its stack trace ("Class: message\n\tat ...", any
/// bytes), and whether the server says not to retry.
pub(super) fn exception_frame(
    call_id: u32,
    class: Option<&str>,
    trace: Option<&[u8]>,
    do_not_retry: bool,
) -> Vec<u8> {
    let header = RawHeader {
        call_id: Some(call_id),
        exception: Some(RawException {
            class: class.map(str::to_owned),
            trace: trace.map(<[u8]>::to_vec),
            do_not_retry: Some(do_not_retry),
        }),
    };
    with_length(header.encode_length_delimited_to_vec())
}

fn with_length(body: Vec<u8>) -> Vec<u8> {
    let mut out = (body.len() as u32).to_be_bytes().to_vec();
    out.extend(body);
    out
}

/// A page of a scan: `rows` (one cell each, in the cell block), and
/// whether the region has more.
pub(super) fn scan_page(rows: &[&[u8]], more_in_region: bool) -> (proto::ScanResponse, Vec<u8>) {
    let mut cells = Vec::new();
    for row in rows {
        put_cell(&mut cells, row, b"d", b"q", 1, &value(row));
    }
    let response = proto::ScanResponse {
        cells_per_result: vec![1; rows.len()],
        partial_flag_per_result: vec![false; rows.len()],
        scanner_id: Some(SCANNER),
        more_results: Some(true),
        more_results_in_region: Some(more_in_region),
        ..Default::default()
    };
    (response, cells)
}

/// The rows of the table a scan asks for, in its order, all in one page.
pub(super) fn honest_scan(scan: &proto::Scan) -> Reply {
    let start = scan.start_row.as_deref().unwrap_or_default();
    let stop = scan.stop_row.as_deref().unwrap_or_default();
    let reversed = scan.reversed.unwrap_or(false);
    let include_start = scan.include_start_row.unwrap_or(true);
    let include_stop = scan.include_stop_row.unwrap_or(false);
    // Forward: [start, stop); reversed: from start down to stop.
    let (low, high) = if reversed {
        (stop, start)
    } else {
        (start, stop)
    };
    let (low_in, high_in) = if reversed {
        (include_stop, include_start)
    } else {
        (include_start, include_stop)
    };
    let mut rows: Vec<&[u8]> = ROWS
        .into_iter()
        .filter(|r| *r > low || (low_in && *r == low))
        .filter(|r| high.is_empty() || *r < high || (high_in && *r == high))
        .collect();
    if reversed {
        rows.reverse();
    }
    let (response, cells) = scan_page(&rows, false);
    Reply::of(&response, cells)
}

/// Answers every action of a `Multi`: a get of a row of the table with
/// its cell (in the cell block), of any other with no cells; a mutation
/// with an empty result (done).
pub(super) fn honest_multi(request: &proto::MultiRequest) -> (proto::MultiResponse, Vec<u8>) {
    let mut cells = Vec::new();
    let mut response = proto::MultiResponse::default();
    for region_action in &request.region_action {
        let mut result = proto::RegionActionResult::default();
        for action in &region_action.action {
            let mut answer = proto::Result::default();
            if let Some(get) = &action.get {
                if ROWS.contains(&get.row.as_slice()) {
                    put_cell(&mut cells, &get.row, b"d", b"q", 1, &value(&get.row));
                    answer.associated_cell_count = Some(1);
                }
            }
            result.result_or_exception.push(proto::ResultOrException {
                index: action.index,
                result: Some(answer),
                exception: None,
            });
        }
        response.region_action_result.push(result);
    }
    (response, cells)
}

/// Answers an increment (or append) with each of its cells at 1.
pub(super) fn honest_mutate(request: &proto::MutateRequest) -> Reply {
    let mutation = &request.mutation;
    let row = mutation.row.clone().unwrap_or_default();
    let mut cells = Vec::new();
    let mut count = 0;
    for column in &mutation.column_value {
        for qv in &column.qualifier_value {
            let qualifier = qv.qualifier.as_deref().unwrap_or_default();
            put_cell(
                &mut cells,
                &row,
                &column.family,
                qualifier,
                1,
                &1i64.to_be_bytes(),
            );
            count += 1;
        }
    }
    let response = proto::MutateResponse {
        result: Some(proto::Result {
            associated_cell_count: Some(count),
            ..Default::default()
        }),
        processed: Some(true),
    };
    Reply::of(&response, cells)
}

/// What `hbase:meta` says of the table.
#[derive(Clone, Debug)]
pub(super) enum Meta {
    /// One region, all keys, on the data server.
    Whole,
    /// Regions `[start, end)` each, on the data server.
    Regions(Vec<(&'static [u8], &'static [u8])>),
    /// One region whose `info:regioninfo` lacks its `PBUF` magic.
    NoMagic,
    /// One region whose `info:regioninfo` is `PBUF` and then garbage.
    BadRegionInfo,
    /// One region open on no server (no `info:server`).
    NoServer,
    /// No rows: no such table.
    Empty,
}

/// A row of `hbase:meta`: its key and its `info` cells.
pub(super) struct MetaRow {
    pub(super) row: Vec<u8>,
    pub(super) cells: Vec<(&'static [u8], Vec<u8>)>,
}

impl Meta {
    /// The rows, for a data server at `server`.
    pub(super) fn rows(&self, server: &str) -> Vec<MetaRow> {
        match self {
            Meta::Whole => vec![region(b"", b"", Some(server))],
            Meta::Regions(regions) => regions
                .iter()
                .map(|(start, end)| region(start, end, Some(server)))
                .collect(),
            Meta::NoMagic => {
                let mut row = region(b"", b"", Some(server));
                row.cells[0].1.drain(..4);
                vec![row]
            }
            Meta::BadRegionInfo => {
                let mut row = region(b"", b"", Some(server));
                row.cells[0].1 = b"PBUF\xff\xff\xff\xff".to_vec();
                vec![row]
            }
            Meta::NoServer => vec![region(b"", b"", None)],
            Meta::Empty => Vec::new(),
        }
    }
}

/// A region's row: `TABLE,START,ID.ENCODED.` with its `regioninfo`
/// (`PBUF` and a `RegionInfo`), `server` and `serverstartcode`.
fn region(start: &[u8], end: &[u8], server: Option<&str>) -> MetaRow {
    let info = proto::RegionInfo {
        region_id: 1,
        table_name: proto::TableName {
            namespace: b"default".to_vec(),
            qualifier: TABLE.as_bytes().to_vec(),
        },
        start_key: Some(start.to_vec()),
        end_key: Some(end.to_vec()),
        offline: None,
        split: None,
        replica_id: None,
    };
    let mut cells = vec![(
        &b"regioninfo"[..],
        [b"PBUF", &info.encode_to_vec()[..]].concat(),
    )];
    if let Some(server) = server {
        cells.push((b"server", server.as_bytes().to_vec()));
        cells.push((b"serverstartcode", 1u64.to_be_bytes().to_vec()));
    }
    MetaRow {
        row: [TABLE.as_bytes(), b",", start, b",1.abc."].concat(),
        cells,
    }
}

/// The page of `hbase:meta` a meta scan gets: every row, the region's last.
pub(super) fn meta_page(rows: &[MetaRow]) -> Reply {
    let mut cells = Vec::new();
    let mut response = proto::ScanResponse {
        scanner_id: Some(SCANNER),
        more_results: Some(true),
        more_results_in_region: Some(false),
        ..Default::default()
    };
    for row in rows {
        for (qualifier, value) in &row.cells {
            put_cell(&mut cells, &row.row, b"info", qualifier, 1, value);
        }
        response.cells_per_result.push(row.cells.len() as u32);
        response.partial_flag_per_result.push(false);
    }
    Reply::of(&response, cells)
}
