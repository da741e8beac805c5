//! HBase's RPC framing: the connection preamble and header, each call's
//! frame, each answer's header, message and cell block, and the cells of
//! a cell block as `KeyValueCodec` writes them.
//!
//! A frame is a 4-byte big-endian length and then varint-delimited
//! protobuf messages: a call's `RequestHeader` and its request; an
//! answer's `ResponseHeader` and, unless it is an exception, its response,
//! followed by `cell_block_meta.length` bytes of cells.

use crate::error::{Error, RemoteException, Result};
use crate::proto;
use crate::types::Cell;
use bytes::{Buf, Bytes};
use prost::Message;

/// `HBas`, RPC version 0, auth SIMPLE (80).
pub(crate) const PREAMBLE: [u8; 6] = *b"HBas\x00\x50";

/// The codec that moves cells out of protobuf into a cell block after
/// the message: how HBase's Java client reads in bulk.
pub(crate) const KEY_VALUE_CODEC: &str = "org.apache.hadoop.hbase.codec.KeyValueCodec";

/// The largest frame accepted from a server: a runaway length is a broken
/// stream, not an allocation.
pub(crate) const MAX_FRAME: usize = 512 << 20;

/// The preamble and connection header that open a connection to `service`
/// as `user` (SIMPLE authentication).
pub(crate) fn hello(service: &str, user: &str) -> Vec<u8> {
    let mut out = PREAMBLE.to_vec();
    out.extend_from_slice(&connection_header(service, Some(user)));
    out
}

/// The connection header, as its length and the message. With SASL, no
/// user: the server takes the one that authenticated (a different one
/// would be a proxy user, which it refuses).
pub(crate) fn connection_header(service: &str, user: Option<&str>) -> Vec<u8> {
    let header = proto::ConnectionHeader {
        user_info: user.map(|user| proto::UserInformation {
            effective_user: user.to_owned(),
        }),
        service_name: Some(service.to_owned()),
        cell_block_codec_class: Some(KEY_VALUE_CODEC.to_owned()),
    };
    let mut out = Vec::with_capacity(4 + header.encoded_len());
    out.extend_from_slice(&(header.encoded_len() as u32).to_be_bytes());
    header.encode(&mut out).expect("a Vec grows");
    out
}

/// One call's frame: its header, its request and its cell block (the
/// cells of mutations that carry `associated_cell_count`), if any.
pub(crate) fn request(
    call_id: u32,
    method: &str,
    request: &impl Message,
    cells: &[u8],
    timeout_ms: u32,
) -> Vec<u8> {
    let header = proto::RequestHeader {
        call_id: Some(call_id),
        method_name: Some(method.to_owned()),
        request_param: Some(true),
        cell_block_meta: (!cells.is_empty()).then_some(proto::CellBlockMeta {
            length: Some(cells.len() as u32),
        }),
        timeout: Some(timeout_ms),
    };
    let header_len = header.encoded_len();
    let request_len = request.encoded_len();
    let body = prost::length_delimiter_len(header_len)
        + header_len
        + prost::length_delimiter_len(request_len)
        + request_len
        + cells.len();
    let mut out = Vec::with_capacity(4 + body);
    out.extend_from_slice(&(body as u32).to_be_bytes());
    header
        .encode_length_delimited(&mut out)
        .expect("a Vec grows");
    request
        .encode_length_delimited(&mut out)
        .expect("a Vec grows");
    out.extend_from_slice(cells);
    out
}

/// The server's clock, as a cell's timestamp (`HConstants.LATEST_TIMESTAMP`):
/// the region server stamps the cell when it applies it.
pub(crate) const LATEST_TIMESTAMP: u64 = i64::MAX as u64;

/// The longest row key HBase takes (`Short.MAX_VALUE`).
pub(crate) const MAX_ROW: usize = i16::MAX as usize;
/// The longest family name a cell can carry (`Byte.MAX_VALUE`).
pub(crate) const MAX_FAMILY: usize = i8::MAX as usize;

/// Appends a put cell to a cell block as `KeyValueCodec` writes it: its
/// length, then the `KeyValue` (key length, value length, row length and
/// row, family length and family, qualifier, timestamp, type `Put`,
/// value). The row and family must be within [`MAX_ROW`] and
/// [`MAX_FAMILY`] (checked before).
pub(crate) fn put_cell(
    out: &mut Vec<u8>,
    row: &[u8],
    family: &[u8],
    qualifier: &[u8],
    timestamp: u64,
    value: &[u8],
) {
    /// `KeyValue.Type.Put`.
    const PUT: u8 = 4;
    let key_len = 2 + row.len() + 1 + family.len() + qualifier.len() + 8 + 1;
    out.reserve(12 + key_len + value.len());
    out.extend_from_slice(&((8 + key_len + value.len()) as u32).to_be_bytes());
    out.extend_from_slice(&(key_len as u32).to_be_bytes());
    out.extend_from_slice(&(value.len() as u32).to_be_bytes());
    out.extend_from_slice(&(row.len() as u16).to_be_bytes());
    out.extend_from_slice(row);
    out.push(family.len() as u8);
    out.extend_from_slice(family);
    out.extend_from_slice(qualifier);
    out.extend_from_slice(&timestamp.to_be_bytes());
    out.push(PUT);
    out.extend_from_slice(value);
}

/// An answer, split: its header, its message's bytes, its cell block.
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) call_id: u32,
    /// What the server threw instead of answering.
    pub(crate) exception: Option<RemoteException>,
    pub(crate) message: Bytes,
    pub(crate) cells: Bytes,
}

/// Splits one frame (without its length) into an [`Answer`].
pub(crate) fn answer(mut frame: Bytes, server: &str) -> Result<Answer> {
    let header = decode_delimited::<proto::ResponseHeader>(&mut frame, server, "ResponseHeader")?;
    let call_id = header
        .call_id
        .ok_or_else(|| Error::protocol(server, "an answer without a call id"))?;
    if let Some(e) = header.exception {
        let trace = e.stack_trace.unwrap_or_default();
        let message = trace.lines().next().unwrap_or_default().trim().to_owned();
        let class = e.exception_class_name.unwrap_or_default();
        // The first line of the trace is "Class: message".
        let message = message
            .strip_prefix(class.as_str())
            .map(|m| m.trim_start_matches(':').trim().to_owned())
            .unwrap_or(message);
        return Ok(Answer {
            call_id,
            exception: Some(RemoteException {
                class,
                message,
                do_not_retry: e.do_not_retry.unwrap_or(false),
            }),
            message: Bytes::new(),
            cells: Bytes::new(),
        });
    }
    let len = prost::decode_length_delimiter(&mut frame)
        .map_err(|e| Error::protocol(server, format!("an answer's message length: {e}")))?;
    if len > frame.len() {
        return Err(Error::protocol(
            server,
            format!("an answer's message of {len} bytes in {} left", frame.len()),
        ));
    }
    let message = frame.split_to(len);
    let cells = match header.cell_block_meta.and_then(|m| m.length) {
        Some(n) if n as usize > frame.len() => {
            return Err(Error::protocol(
                server,
                format!("a cell block of {n} bytes in {} left", frame.len()),
            ))
        }
        Some(n) => frame.split_to(n as usize),
        None => Bytes::new(),
    };
    Ok(Answer {
        call_id,
        exception: None,
        message,
        cells,
    })
}

fn decode_delimited<M: Message + Default>(
    frame: &mut Bytes,
    server: &str,
    what: &str,
) -> Result<M> {
    let len = prost::decode_length_delimiter(&mut *frame)
        .map_err(|e| Error::protocol(server, format!("{what}'s length: {e}")))?;
    if len > frame.len() {
        return Err(Error::protocol(
            server,
            format!("{what} of {len} bytes in {} left", frame.len()),
        ));
    }
    M::decode(frame.split_to(len)).map_err(|e| Error::protocol(server, format!("{what}: {e}")))
}

/// Decodes a message of an answer.
pub(crate) fn decode<M: Message + Default>(bytes: Bytes, server: &str, what: &str) -> Result<M> {
    M::decode(bytes).map_err(|e| Error::protocol(server, format!("{what}: {e}")))
}

/// A cell of a cell block, with its row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BlockCell {
    pub(crate) row: Vec<u8>,
    pub(crate) cell: Cell,
    /// `KeyValue.Type`: 4 is a put.
    pub(crate) kind: u8,
}

/// Reads `count` cells from the front of `block` (a `KeyValueCodec`
/// block: each cell its 4-byte length, then a `KeyValue` without tags).
pub(crate) fn cells(block: &mut Bytes, count: usize, server: &str) -> Result<Vec<BlockCell>> {
    let mut out = Vec::with_capacity(count.min(4096));
    for _ in 0..count {
        out.push(cell(block, server)?);
    }
    Ok(out)
}

fn cell(block: &mut Bytes, server: &str) -> Result<BlockCell> {
    let bad = |why: &str| Error::protocol(server, format!("a cell block's cell: {why}"));
    if block.len() < 4 {
        return Err(bad("fewer cells than the answer counts"));
    }
    let total = block.get_u32() as usize;
    if total > block.len() || total < 8 {
        return Err(bad("a length past the block"));
    }
    let mut kv = block.split_to(total);
    let key_len = kv.get_u32() as usize;
    let value_len = kv.get_u32() as usize;
    // row length (2), family length (1), timestamp (8), type (1)
    if key_len < 12 || key_len.checked_add(value_len) != Some(kv.len()) {
        return Err(bad("key and value lengths that do not add up"));
    }
    let mut key = kv.split_to(key_len);
    let row_len = key.get_u16() as usize;
    if row_len + 1 > key.len() {
        return Err(bad("a row past its key"));
    }
    let row = key.split_to(row_len).to_vec();
    let family_len = key.get_u8() as usize;
    if family_len + 9 > key.len() {
        return Err(bad("a family past its key"));
    }
    let family = key.split_to(family_len).to_vec();
    let qualifier = key.split_to(key.len() - 9).to_vec();
    let timestamp = key.get_u64();
    let kind = key.get_u8();
    Ok(BlockCell {
        row,
        cell: Cell {
            family,
            qualifier,
            value: kv.to_vec(),
            timestamp,
        },
        kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cell as `KeyValueCodec` writes it.
    fn key_value(row: &[u8], family: &[u8], qualifier: &[u8], ts: u64, value: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        put_cell(&mut out, row, family, qualifier, ts, value);
        out
    }

    /// A put cell laid out field by field as `KeyValue` documents it;
    /// that region servers take it is checked end to end (every native
    /// write goes in a cell block, and Java reads the rows back in
    /// `rowkey-hbase`'s `java_checks`).
    #[test]
    fn a_put_cell_is_laid_out_as_a_key_value() {
        let mut want = Vec::new();
        want.extend_from_slice(&25u32.to_be_bytes()); // 8 + key 16 + value 1
        want.extend_from_slice(&16u32.to_be_bytes()); // 2 + 2 + 1 + 1 + 1 + 8 + 1
        want.extend_from_slice(&1u32.to_be_bytes());
        want.extend_from_slice(b"\x00\x02r1\x01dq");
        want.extend_from_slice(&7u64.to_be_bytes());
        want.extend_from_slice(b"\x04v");
        assert_eq!(key_value(b"r1", b"d", b"q", 7, b"v"), want);
    }

    #[test]
    fn cells_read_back_as_written() {
        let mut block = key_value(b"r1", b"d", b"q", 7, b"v");
        block.extend(key_value(b"r2", b"f", b"", u64::MAX, b""));
        let mut block = Bytes::from(block);
        let got = cells(&mut block, 2, "s").unwrap();
        assert_eq!(got[0].row, b"r1");
        assert_eq!(got[0].cell.qualifier, b"q");
        assert_eq!(got[0].cell.timestamp, 7);
        assert_eq!(got[1].cell.family, b"f");
        assert!(got[1].cell.qualifier.is_empty() && got[1].cell.value.is_empty());
        assert!(block.is_empty());
    }

    #[test]
    fn every_cut_of_a_block_is_an_error_never_a_panic() {
        let whole = key_value(b"row", b"d", b"qualifier", 1, b"value");
        for n in 0..whole.len() {
            let mut block = Bytes::copy_from_slice(&whole[..n]);
            assert!(cells(&mut block, 1, "s").is_err(), "{n} bytes");
        }
        for i in 4..whole.len() {
            for b in [0u8, 0xff] {
                let mut bad = whole.clone();
                bad[i] = b;
                let _ = cells(&mut Bytes::from(bad), 1, "s");
            }
        }
    }

    #[test]
    fn an_exception_names_its_class_and_message() {
        let header = proto::ResponseHeader {
            call_id: Some(3),
            exception: Some(proto::ExceptionResponse {
                exception_class_name: Some(
                    "org.apache.hadoop.hbase.NotServingRegionException".into(),
                ),
                stack_trace: Some(
                    "org.apache.hadoop.hbase.NotServingRegionException: t,,1 is not online\n\tat x"
                        .into(),
                ),
                hostname: None,
                port: None,
                do_not_retry: Some(false),
            }),
            cell_block_meta: None,
        };
        let mut frame = Vec::new();
        header.encode_length_delimited(&mut frame).unwrap();
        let got = answer(Bytes::from(frame), "s").unwrap();
        let e = got.exception.unwrap();
        assert_eq!(e.simple_class(), "NotServingRegionException");
        assert_eq!(e.message, "t,,1 is not online");
        assert!(e.is_stale_location() && e.is_retryable());
    }
}
