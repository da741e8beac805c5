//! [`Connection`]: one TCP connection to one service of one server, with
//! many calls in flight: each call has an id, its frame is written whole
//! under a lock, and a reader task hands each answer to the call of its
//! id. A connection that fails fails every call in flight on it and is
//! never used again.

use crate::error::{Error, Result};
use crate::transport::{Reader, Security, Writer};
use crate::wire::{self, Answer};
use bytes::{BufMut, Bytes};
use prost::Message;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

/// Calls waiting for their answers, or why no more will come.
#[derive(Default)]
struct Waiting {
    calls: HashMap<u32, oneshot::Sender<Result<Answer>>>,
    broken: Option<Error>,
}

struct Shared {
    /// `host:port`, for errors.
    server: String,
    /// Where the connection goes (the server's address, or a proxy's).
    address: String,
    writer: tokio::sync::Mutex<Writer>,
    waiting: Mutex<Waiting>,
    next_id: AtomicU32,
    /// How the connection is secured: a TLS stream that ends early is no
    /// sign of a TLS server, and a refusal after authenticating is not one
    /// for want of credentials.
    secured: crate::transport::Secured,
}

impl Shared {
    /// Fails every waiting call with `error` and every later one too.
    fn break_with(&self, error: Error) {
        let mut waiting = self.waiting.lock().unwrap_or_else(PoisonError::into_inner);
        if waiting.broken.is_none() {
            waiting.broken = Some(error.clone());
        }
        for (_, call) in waiting.calls.drain() {
            let _ = call.send(Err(error.clone()));
        }
    }
}

/// Why a call failed, and whether the server may have run it: the
/// request went out whole and no answer came (the connection broke, or
/// the call timed out). An answer, even an exception, is not that.
#[derive(Debug)]
pub(crate) struct CallFailure {
    pub(crate) error: Error,
    pub(crate) may_have_run: bool,
}

/// A connection to one service (`ClientService`, `MasterService`,
/// `ClientMetaService`) of one server. Cheap to clone.
#[derive(Clone)]
pub(crate) struct Connection {
    shared: Arc<Shared>,
    reader: Arc<ReaderTask>,
}

/// Stops the reader when the last clone of its connection goes.
struct ReaderTask(tokio::task::JoinHandle<()>);

impl Drop for ReaderTask {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Connection {
    /// Connects to `address` (what the server is called in errors:
    /// `server`) and says hello to `service` as `user`, or authenticates
    /// as `security` says; must run on a tokio runtime (the reader is a
    /// task of it).
    pub(crate) async fn open(
        server: &str,
        address: &str,
        service: &str,
        user: &str,
        timeout: Duration,
        security: &Security,
    ) -> Result<Connection> {
        let stream = tokio::time::timeout(timeout, TcpStream::connect(address))
            .await
            .map_err(|_| Error::Timeout {
                server: server.to_owned(),
                call: "connect",
                after: timeout,
            })?
            .map_err(|e| Error::connection(server, e))?;
        let _ = stream.set_nodelay(true);
        let (read, write) =
            tokio::time::timeout(timeout, security.hello(server, service, user, stream))
                .await
                .map_err(|_| Error::Timeout {
                    server: server.to_owned(),
                    call: "connection header",
                    after: timeout,
                })??;
        let shared = Arc::new(Shared {
            server: server.to_owned(),
            address: address.to_owned(),
            writer: tokio::sync::Mutex::new(write),
            waiting: Mutex::default(),
            next_id: AtomicU32::new(1),
            secured: security.secured(),
        });
        let reader = tokio::spawn(read_answers(read, shared.clone()));
        Ok(Connection {
            shared,
            reader: Arc::new(ReaderTask(reader)),
        })
    }

    /// Whether the connection failed (no call on it can succeed).
    pub(crate) fn is_broken(&self) -> bool {
        self.shared
            .waiting
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .broken
            .is_some()
            || self.reader.0.is_finished()
    }

    /// Calls `method` with `request` (and the cell block `cells` its
    /// mutations refer to) and waits at most `timeout` for the answer: its
    /// message and its cell block. A timeout breaks the connection (its
    /// frame may be half written, or the server stuck).
    pub(crate) async fn call(
        &self,
        method: &'static str,
        request: &impl Message,
        cells: &[u8],
        timeout: Duration,
    ) -> Result<(Bytes, Bytes)> {
        self.call_tracked(method, request, cells, timeout)
            .await
            .map_err(|f| f.error)
    }

    /// [`call`](Self::call), saying of a failure whether the request went
    /// out whole and no answer came: only then may the server have run it.
    pub(crate) async fn call_tracked(
        &self,
        method: &'static str,
        request: &impl Message,
        cells: &[u8],
        timeout: Duration,
    ) -> std::result::Result<(Bytes, Bytes), CallFailure> {
        let not_run = |error: Error| CallFailure {
            error,
            may_have_run: false,
        };
        let id = self.shared.next_id.fetch_add(1, Ordering::Relaxed) & 0x7fff_ffff;
        let (tx, rx) = oneshot::channel();
        {
            let mut waiting = self
                .shared
                .waiting
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if let Some(e) = &waiting.broken {
                return Err(not_run(e.clone()));
            }
            waiting.calls.insert(id, tx);
        }
        let written = std::sync::atomic::AtomicBool::new(false);
        let frame = wire::request(
            id,
            method,
            request,
            cells,
            timeout.as_millis().min(u32::MAX as u128) as u32,
        );
        let exchange = async {
            {
                let mut writer = self.shared.writer.lock().await;
                // A frame written in part is one no server can read (and,
                // sealed, a token the server's sequence check refuses): a
                // call dropped mid-write breaks the connection.
                let mut unfinished = Unfinished(Some(&self.shared));
                match writer.write_all(&frame).await {
                    Ok(()) => {
                        written.store(true, Ordering::Relaxed);
                        unfinished.0 = None;
                    }
                    // The stream broke: the reader, reading the same
                    // stream, fails this call with why (a server that
                    // takes only TLS closes at the preamble, and the write
                    // may see its reset first). A write that failed without
                    // the stream breaking (a wrap token not made) breaks
                    // the connection here: no reader would see it.
                    Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                        unfinished.0 = None;
                        self.shared
                            .break_with(Error::connection(&self.shared.server, e));
                    }
                    Err(_) => unfinished.0 = None,
                }
            }
            rx.await.map_err(|_| Error::ClientClosed)?
        };
        let answer = match tokio::time::timeout(timeout, exchange).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(e)) => {
                self.shared.break_with(e.clone());
                return Err(CallFailure {
                    error: e,
                    may_have_run: written.load(Ordering::Relaxed),
                });
            }
            Err(_) => {
                let e = Error::Timeout {
                    server: self.shared.server.clone(),
                    call: method,
                    after: timeout,
                };
                self.shared.break_with(e.clone());
                return Err(CallFailure {
                    error: e,
                    may_have_run: written.load(Ordering::Relaxed),
                });
            }
        };
        if let Some(exception) = answer.exception {
            return Err(not_run(Error::Remote {
                server: self.shared.server.clone(),
                region: None,
                call: method,
                exception,
            }));
        }
        Ok((answer.message, answer.cells))
    }
}

/// Breaks the connection when dropped holding it: a call dropped while its
/// frame was being written.
struct Unfinished<'a>(Option<&'a Shared>);

impl Drop for Unfinished<'_> {
    fn drop(&mut self) {
        if let Some(shared) = self.0 {
            shared.break_with(Error::connection(
                &shared.server,
                "a call was dropped while its request was being written",
            ));
        }
    }
}

/// Reads answers until the stream ends or breaks, handing each to its call.
async fn read_answers(mut read: Reader, shared: Arc<Shared>) {
    let mut answered = false;
    let error = loop {
        let mut len = [0u8; 4];
        if let Err(e) = read.read_exact(&mut len).await {
            // Closed before any answer: a server that takes only TLS
            // closes at the preamble without a word (perhaps before the
            // first call is even waiting: a connection opens for a call).
            #[cfg(feature = "tls")]
            if let Some(tls) = crate::tls::stream_error(&shared.server, &e) {
                break tls;
            }
            if !answered && !shared.secured.tls && speaks_tls(&shared.address).await {
                break Error::Unsupported {
                    server: shared.server.clone(),
                    what: "TLS (it closed the connection at the preamble and answers a TLS \
                           ClientHello): build hbase-native with its `tls` feature and set \
                           Options::tls"
                        .into(),
                };
            }
            break Error::connection(&shared.server, closed_why(e));
        }
        answered = true;
        let len = u32::from_be_bytes(len) as usize;
        if len > wire::MAX_FRAME {
            break unexpected_frame(&shared.server, len);
        }
        let mut frame = Vec::new();
        if let Err(e) = read.read_frame(len, &mut frame).await {
            break Error::connection(&shared.server, closed_why(e));
        }
        match wire::answer(Bytes::from(frame), &shared.server) {
            Ok(answer) => {
                let call = shared
                    .waiting
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .calls
                    .remove(&answer.call_id);
                match (call, answer.exception) {
                    (Some(call), exception) => {
                        let _ = call.send(Ok(Answer {
                            exception,
                            ..answer
                        }));
                    }
                    // An exception for no call (id -1 or 0): the connection
                    // itself was refused, as a secure server refuses SIMPLE
                    // authentication.
                    (None, Some(exception)) => {
                        break refused(&shared.server, exception, shared.secured.sasl)
                    }
                    // An answer to a call that timed out: nobody waits for it.
                    (None, None) => {}
                }
            }
            Err(e) => break e,
        }
    };
    shared.break_with(error);
}

/// What a frame's buffer first holds, and the least it grows by: enough
/// for most answers in one read.
const FRAME_CHUNK: usize = 64 << 10;

/// Reads the `len` bytes of a frame into `frame` (emptied first), the
/// buffer growing as bytes arrive (doubling what came, never past `len`):
/// a length is only a claim, so a server that claims 400 MiB and sends 10
/// bytes costs 64 KiB, not 400 MiB. The stream's end before `len` bytes
/// is `UnexpectedEof`; nothing past them is read.
pub(crate) async fn read_frame<R: AsyncRead + Unpin>(
    read: &mut R,
    len: usize,
    frame: &mut Vec<u8>,
) -> std::io::Result<()> {
    frame.clear();
    while frame.len() < len {
        if frame.len() >= frame.capacity() {
            frame.reserve_exact((len - frame.len()).min(frame.len().max(FRAME_CHUNK)));
        }
        let room = frame.capacity().min(len) - frame.len();
        if read.read_buf(&mut (&mut *frame).limit(room)).await? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
    }
    Ok(())
}

/// Why a server refused a connection, as an error. `sasl`: the
/// connection authenticated (Kerberos or a token), so a refusal is the
/// server's word on who it is, not a want of credentials.
fn refused(server: &str, exception: crate::error::RemoteException, sasl: bool) -> Error {
    if sasl {
        return Error::Authentication {
            server: server.to_owned(),
            why: format!("the server refused the authenticated connection: {exception}"),
        };
    }
    let text = exception.to_string().to_ascii_lowercase();
    if exception.simple_class() == "AccessDeniedException"
        || text.contains("sasl")
        || text.contains("authentication")
    {
        return Error::Unsupported {
            server: server.to_owned(),
            what: format!(
                "SASL authentication (it answered {exception}); for Kerberos, build \
                 hbase-native with its `kerberos` feature and set Options::kerberos"
            ),
        };
    }
    Error::Remote {
        server: server.to_owned(),
        region: None,
        call: "connection header",
        exception,
    }
}

/// Whether `address` answers a TLS ClientHello as TLS does: with a
/// handshake or an alert record (`0x16` or `0x15`, then version `0x03`).
/// A plaintext HBase closes or answers otherwise. A few seconds at most.
async fn speaks_tls(address: &str) -> bool {
    const WAIT: Duration = Duration::from_secs(3);
    let probe = async {
        let mut stream = TcpStream::connect(address).await.ok()?;
        stream.write_all(&client_hello()).await.ok()?;
        let mut head = [0u8; 2];
        stream.read_exact(&mut head).await.ok()?;
        Some(matches!(head[0], 0x15 | 0x16) && head[1] == 0x03)
    };
    matches!(tokio::time::timeout(WAIT, probe).await, Ok(Some(true)))
}

/// A minimal TLS 1.2 ClientHello: one RSA and one ECDHE cipher suite,
/// SHA-256 RSA signatures, the P-256 curve. A TLS server answers it with
/// its hello or with an alert; either says TLS.
fn client_hello() -> Vec<u8> {
    let mut body = vec![0x03, 0x03]; // client_version: TLS 1.2
    body.extend_from_slice(&[0; 32]); // random
    body.push(0); // no session id
    body.extend_from_slice(&[0x00, 0x04, 0xc0, 0x2f, 0x00, 0x9c]); // cipher suites
    body.extend_from_slice(&[0x01, 0x00]); // no compression
    let extensions: &[u8] = &[
        0x00, 0x0d, 0x00, 0x04, 0x00, 0x02, 0x04, 0x01, // signature_algorithms
        0x00, 0x0a, 0x00, 0x04, 0x00, 0x02, 0x00, 0x17, // supported_groups
        0x00, 0x0b, 0x00, 0x02, 0x01, 0x00, // ec_point_formats
    ];
    body.extend_from_slice(&(extensions.len() as u16).to_be_bytes());
    body.extend_from_slice(extensions);
    let mut handshake = vec![0x01]; // ClientHello
    handshake.extend_from_slice(&(body.len() as u32).to_be_bytes()[1..]);
    handshake.extend_from_slice(&body);
    let mut record = vec![0x16, 0x03, 0x01];
    record.extend_from_slice(&(handshake.len() as u16).to_be_bytes());
    record.extend_from_slice(&handshake);
    record
}

fn closed_why(e: std::io::Error) -> String {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        "the server closed the connection".into()
    } else {
        e.to_string()
    }
}

/// A length no HBase frame has: most likely not HBase's RPC port, or a
/// server that wants SASL or TLS (whose first bytes are not a length).
fn unexpected_frame(server: &str, len: usize) -> Error {
    let bytes = (len as u32).to_be_bytes();
    // A TLS alert or handshake starts 0x15/0x16 0x03.
    if matches!(bytes[0], 0x15 | 0x16) && bytes[1] == 0x03 {
        return Error::Unsupported {
            server: server.to_owned(),
            what: "TLS: build hbase-native with its `tls` feature and set Options::tls".into(),
        };
    }
    Error::protocol(
        server,
        format!(
            "a frame of {len} bytes (first bytes {bytes:02x?}): is this HBase's RPC port, \
             not a Thrift, REST or ZooKeeper port?"
        ),
    )
}
