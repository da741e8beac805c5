//! The fake region servers: they read HBase's RPC as the client writes it
//! (the preamble, the connection header, then frames of a
//! `RequestHeader`, a request and perhaps a cell block) and answer each
//! call. The meta server answers `hbase:meta`'s scan; the data server
//! answers `Scan`, `Multi` and `Mutate` as its [`Mode`] says.

use super::answers::{self, exception_frame, frame, MetaRow, Reply};
use super::Stats;
use crate::proto;
use crate::wire::PREAMBLE;
use bytes::{Buf, Bytes};
use prost::Message;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// How the data server answers.
#[derive(Clone, Debug)]
pub(super) enum Mode {
    /// Rightly: the table's rows `a`, `b`, `c`, every write done.
    Honest,
    /// These bytes instead of the first answer, then silence.
    Garbage(&'static [u8]),
    /// A right header and then a message that is no protobuf.
    BadMessage,
    /// A frame length of `claim`, then `sent` bytes of the frame; then
    /// silence, or a close if `close`.
    Claim {
        claim: u32,
        sent: usize,
        close: bool,
    },
    /// The right answer under another call id; then under the right one
    /// too if `then_right`, else silence.
    WrongCallId { then_right: bool },
    /// Every call answered with an exception in the response header.
    Exception {
        class: Option<&'static str>,
        trace: Option<&'static [u8]>,
        do_not_retry: bool,
    },
    /// Every region action of a `Multi` answered with this exception;
    /// other calls answered rightly.
    RegionException {
        class: &'static str,
        message: &'static [u8],
    },
    /// A scan's results claim `claimed` cells each; the block has one.
    LyingScanCells { claimed: u32 },
    /// A `Multi`'s gets claim a million cells each; the block has one.
    LyingGetCells,
    /// An increment's result claims cells; the answer has no cell block.
    LyingMutateCells,
    /// Every answer's header claims 1,000 bytes more cell block than
    /// the frame holds.
    ShortCellBlock,
    /// A scan's pages: the first answers the open, each next the next;
    /// the last is the region's last.
    ScanPages(Vec<Vec<&'static [u8]>>),
    /// `Multi` answers one result short in every region action.
    ShortMulti,
    /// `Multi` answers its last action as the first, twice.
    RepeatedMulti,
    /// `Multi` answers no region action at all.
    EmptyMulti,
    /// Reads every call and answers none.
    Silent,
    /// Closes each connection once its preamble is read.
    CloseAfterPreamble,
    /// Answers a TLS ClientHello with a TLS alert; closes at anything else.
    TlsOnly,
    /// A scan's first `n` pages are heartbeats (no rows, the region not
    /// done); then row `a` and the region's end.
    Heartbeats(usize),
    /// A scan's first page has row `a` and says the region has more,
    /// but names no scanner to ask.
    NoScannerId,
}

/// What a fake region server serves.
#[derive(Clone)]
pub(super) enum Role {
    /// `hbase:meta`, with these rows.
    Meta(Arc<Vec<MetaRow>>),
    /// The table's regions, answering as the mode says.
    Data(Arc<Mode>),
}

/// One call, as the server reads it.
pub(super) struct Call {
    pub(super) id: u32,
    pub(super) method: String,
    pub(super) request: Bytes,
}

/// What the server does next on a connection.
enum Out {
    Send(Vec<u8>),
    /// Reads on, answers nothing more.
    Silence,
    Close,
}

/// Serves connections on `listener` until the test ends.
pub(super) async fn serve(listener: TcpListener, role: Role, stats: Arc<Stats>) {
    while let Ok((stream, _)) = listener.accept().await {
        if matches!(role, Role::Data(_)) {
            stats.connections.fetch_add(1, Ordering::SeqCst);
        }
        let (role, stats) = (role.clone(), stats.clone());
        tokio::spawn(async move {
            // A client that goes away is no failure of the fake.
            let _ = connection(stream, role, &stats).await;
        });
    }
}

async fn connection(mut stream: TcpStream, role: Role, stats: &Stats) -> std::io::Result<()> {
    let mut preamble = [0u8; 6];
    stream.read_exact(&mut preamble).await?;
    if let Role::Data(mode) = &role {
        match **mode {
            Mode::CloseAfterPreamble => return Ok(()),
            Mode::TlsOnly => {
                if preamble[..2] == [0x16, 0x03] {
                    // A fatal handshake_failure alert.
                    stream.write_all(&[0x15, 0x03, 0x03, 0, 2, 2, 40]).await?;
                }
                return Ok(());
            }
            _ => {}
        }
    }
    assert_eq!(preamble, PREAMBLE, "the client's preamble");
    let header = read_frame(&mut stream).await?;
    let header = proto::ConnectionHeader::decode(header).expect("a ConnectionHeader");
    assert_eq!(header.service_name.as_deref(), Some("ClientService"));
    let mut silent = false;
    loop {
        let call = parse(read_frame(&mut stream).await?);
        let outs = match &role {
            Role::Meta(rows) => {
                stats.meta_scans.fetch_add(1, Ordering::SeqCst);
                vec![Out::Send(frame(call.id, &answers::meta_page(rows)))]
            }
            Role::Data(mode) => {
                stats.record(&call.method);
                data_answer(mode, &call, stats)
            }
        };
        if silent {
            continue;
        }
        for out in outs {
            match out {
                Out::Send(bytes) => stream.write_all(&bytes).await?,
                Out::Silence => silent = true,
                Out::Close => return Ok(()),
            }
        }
    }
}

/// A frame the client sent: its 4-byte length, then that many bytes.
async fn read_frame(stream: &mut TcpStream) -> std::io::Result<Bytes> {
    let len = stream.read_u32().await? as usize;
    // The client's frames are small: a fake has no need to guard this.
    let mut body = vec![0; len];
    stream.read_exact(&mut body).await?;
    Ok(body.into())
}

/// Splits a call's frame into its header and request (its cell block,
/// if any, the fake has no use for).
fn parse(mut frame: Bytes) -> Call {
    let header = proto::RequestHeader::decode_length_delimited(&mut frame).expect("a header");
    let len = prost::decode_length_delimiter(&mut frame).expect("a request length");
    let request = frame.split_to(len);
    assert!(
        header.cell_block_meta.and_then(|m| m.length).unwrap_or(0) as usize == frame.remaining(),
        "the cell block is as long as the header says"
    );
    Call {
        id: header.call_id.expect("a call id"),
        method: header.method_name.expect("a method"),
        request,
    }
}

/// The right answer to `call`.
fn honest(call: &Call, stats: &Stats) -> Reply {
    match call.method.as_str() {
        "Scan" => {
            let request = proto::ScanRequest::decode(call.request.clone()).expect("a scan");
            if request.close_scanner == Some(true) {
                stats.closed.fetch_add(1, Ordering::SeqCst);
            }
            match &request.scan {
                Some(scan) => answers::honest_scan(scan),
                // A next or a close: the one page said all there was.
                None => Reply::of(&answers::scan_page(&[], false).0, Vec::new()),
            }
        }
        "Multi" => {
            let (response, cells) = answers::honest_multi(&multi(call));
            Reply::of(&response, cells)
        }
        "Mutate" => answers::honest_mutate(&mutate(call)),
        other => panic!("the fake has no {other}"),
    }
}

fn multi(call: &Call) -> proto::MultiRequest {
    proto::MultiRequest::decode(call.request.clone()).expect("a Multi")
}

fn mutate(call: &Call) -> proto::MutateRequest {
    proto::MutateRequest::decode(call.request.clone()).expect("a Mutate")
}

/// What the data server sends for `call`, in `mode`.
fn data_answer(mode: &Mode, call: &Call, stats: &Stats) -> Vec<Out> {
    let send = |reply: &Reply| vec![Out::Send(frame(call.id, reply))];
    let is = |method: &str| call.method == method;
    match mode {
        Mode::Honest | Mode::CloseAfterPreamble | Mode::TlsOnly => send(&honest(call, stats)),
        Mode::Garbage(bytes) => vec![Out::Send(bytes.to_vec()), Out::Silence],
        Mode::BadMessage => send(&Reply {
            message: vec![0xff; 11],
            ..Reply::default()
        }),
        Mode::Claim { claim, sent, close } => {
            let mut bytes = claim.to_be_bytes().to_vec();
            bytes.extend(std::iter::repeat_n(0x42, *sent));
            let then = if *close { Out::Close } else { Out::Silence };
            vec![Out::Send(bytes), then]
        }
        Mode::WrongCallId { then_right } => {
            let reply = honest(call, stats);
            let mut outs = vec![Out::Send(frame(call.id + 1000, &reply))];
            outs.push(match then_right {
                true => Out::Send(frame(call.id, &reply)),
                false => Out::Silence,
            });
            outs
        }
        Mode::Exception {
            class,
            trace,
            do_not_retry,
        } => vec![Out::Send(exception_frame(
            call.id,
            *class,
            *trace,
            *do_not_retry,
        ))],
        Mode::RegionException { class, message } if is("Multi") => {
            let request = multi(call);
            let failed = proto::RegionActionResult {
                exception: Some(proto::NameBytesPair {
                    name: (*class).into(),
                    value: Some(message.to_vec()),
                }),
                ..Default::default()
            };
            let response = proto::MultiResponse {
                region_action_result: vec![failed; request.region_action.len()],
            };
            send(&Reply::of(&response, Vec::new()))
        }
        Mode::LyingScanCells { claimed } if is("Scan") => {
            let request = proto::ScanRequest::decode(call.request.clone()).expect("a scan");
            let (mut response, cells) = answers::scan_page(&[b"a"], request.scan.is_none());
            response.cells_per_result = vec![*claimed];
            send(&Reply::of(&response, cells))
        }
        Mode::LyingGetCells if is("Multi") => {
            let (mut response, cells) = answers::honest_multi(&multi(call));
            for result in &mut response.region_action_result {
                for r in &mut result.result_or_exception {
                    r.result.get_or_insert_default().associated_cell_count = Some(1_000_000);
                }
            }
            send(&Reply::of(&response, cells))
        }
        Mode::LyingMutateCells if is("Mutate") => {
            let mut reply = answers::honest_mutate(&mutate(call));
            reply.cells.clear();
            send(&reply)
        }
        Mode::ShortCellBlock => {
            let mut reply = honest(call, stats);
            reply.claimed_cells = Some(reply.cells.len() as u32 + 1000);
            send(&reply)
        }
        Mode::ScanPages(pages) if is("Scan") => {
            let request = proto::ScanRequest::decode(call.request.clone()).expect("a scan");
            if request.close_scanner == Some(true) {
                return send(&honest(call, stats));
            }
            let n = match request.scan {
                Some(_) => 0,
                None => request.next_call_seq.unwrap_or(0) as usize + 1,
            };
            let rows = pages.get(n).map_or(&[][..], Vec::as_slice);
            let (response, cells) = answers::scan_page(rows, n + 1 < pages.len());
            send(&Reply::of(&response, cells))
        }
        Mode::ShortMulti | Mode::RepeatedMulti | Mode::EmptyMulti if is("Multi") => {
            let (mut response, cells) = answers::honest_multi(&multi(call));
            for result in &mut response.region_action_result {
                let results = &mut result.result_or_exception;
                match mode {
                    Mode::ShortMulti => drop(results.pop()),
                    Mode::RepeatedMulti => {
                        let first = results[0].clone();
                        *results.last_mut().expect("an action") = first;
                    }
                    _ => {}
                }
            }
            if matches!(mode, Mode::EmptyMulti) {
                response.region_action_result.clear();
            }
            send(&Reply::of(&response, cells))
        }
        Mode::Silent => vec![Out::Silence],
        Mode::Heartbeats(n) if is("Scan") => {
            let request = proto::ScanRequest::decode(call.request.clone()).expect("a scan");
            if request.close_scanner == Some(true) {
                return send(&honest(call, stats));
            }
            let page = match request.scan {
                Some(_) => 0,
                None => request.next_call_seq.unwrap_or(0) as usize + 1,
            };
            let (mut response, cells) = if page < *n {
                answers::scan_page(&[], true)
            } else {
                answers::scan_page(&[b"a"], false)
            };
            response.heartbeat_message = Some(page < *n);
            send(&Reply::of(&response, cells))
        }
        Mode::NoScannerId if is("Scan") => {
            let (mut response, cells) = answers::scan_page(&[b"a"], true);
            response.scanner_id = None;
            send(&Reply::of(&response, cells))
        }
        // A mode about another call: this one is answered rightly.
        _ => send(&honest(call, stats)),
    }
}
