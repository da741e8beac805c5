//! The SASL security layer after a GSSAPI exchange that chose integrity or
//! privacy: every byte each way goes in GSSAPI wrap tokens, each sent as a
//! 4-byte big-endian length and the token (Hadoop's and HBase's
//! `SaslInputStream`/`SaslOutputStream` and their Netty handlers). The
//! tokens need not match the RPC frames: the unwrapped bytes are one
//! stream, read as the plain connection's.

use crate::connection::read_frame;
use crate::transport::{ReadHalf, WriteHalf};
use crate::wire::MAX_FRAME;
use libgssapi::context::{ClientCtx, SecurityContext};
use std::io;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The established context both directions use, and how.
pub(crate) struct Layer {
    ctx: Mutex<ClientCtx>,
    /// Privacy: encrypt as well as sign.
    encrypt: bool,
    /// The most plaintext one token carries: below what the server said it
    /// takes (its maximum buffer, which counts the token), with room for
    /// the token's own header, checksum and padding.
    max_plain: usize,
}

/// Room in a token for what GSSAPI adds to the plaintext: a krb5 wrap
/// token adds 16 bytes of header, a checksum of at most 24 bytes (AES with
/// SHA-384) and, encrypted, a 16-byte confounder and padding.
const TOKEN_OVERHEAD: usize = 128;

impl Layer {
    /// `server_max`: the largest token the server takes (0: no limit).
    pub(crate) fn new(ctx: ClientCtx, encrypt: bool, server_max: usize) -> Arc<Layer> {
        let max_plain = match server_max {
            0 => MAX_FRAME,
            n => n.saturating_sub(TOKEN_OVERHEAD).max(1024),
        };
        Arc::new(Layer {
            ctx: Mutex::new(ctx),
            encrypt,
            max_plain,
        })
    }

    fn ctx(&self) -> std::sync::MutexGuard<'_, ClientCtx> {
        self.ctx.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `plain` as length-prefixed wrap tokens, ready to send.
    pub(crate) fn seal(&self, plain: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::with_capacity(plain.len() + 4 + TOKEN_OVERHEAD);
        let mut ctx = self.ctx();
        for chunk in plain.chunks(self.max_plain) {
            let token = ctx.wrap(self.encrypt, chunk).map_err(gss_io)?;
            out.extend_from_slice(&(token.len() as u32).to_be_bytes());
            out.extend_from_slice(&token);
        }
        Ok(out)
    }

    /// The plaintext of one token.
    pub(crate) fn open(&self, token: &[u8]) -> io::Result<Vec<u8>> {
        let plain = self.ctx().unwrap(token).map_err(gss_io)?;
        Ok(plain.to_vec())
    }
}

fn gss_io(e: libgssapi::error::Error) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("a SASL wrap token failed: {e}"),
    )
}

/// The write half of a connection with a security layer.
pub(crate) struct SealedWriter {
    write: WriteHalf,
    layer: Arc<Layer>,
}

impl SealedWriter {
    pub(crate) fn new(write: WriteHalf, layer: Arc<Layer>) -> Self {
        SealedWriter { write, layer }
    }

    /// Sends `plain`, wrapped.
    pub(crate) async fn write_all(&mut self, plain: &[u8]) -> io::Result<()> {
        let sealed = self.layer.seal(plain)?;
        self.write.write_all(&sealed).await?;
        self.write.flush().await
    }
}

/// The read half of a connection with a security layer: the plaintext of
/// the tokens read so far and not yet taken.
pub(crate) struct SealedReader {
    read: ReadHalf,
    layer: Arc<Layer>,
    plain: Vec<u8>,
    taken: usize,
    token: Vec<u8>,
}

impl SealedReader {
    pub(crate) fn new(read: ReadHalf, layer: Arc<Layer>) -> Self {
        SealedReader {
            read,
            layer,
            plain: Vec::new(),
            taken: 0,
            token: Vec::new(),
        }
    }

    /// Reads the next token and appends its plaintext.
    async fn fill(&mut self) -> io::Result<()> {
        let mut len = [0u8; 4];
        self.read.read_exact(&mut len).await?;
        let len = u32::from_be_bytes(len) as usize;
        if len > MAX_FRAME {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a SASL wrap token of {len} bytes"),
            ));
        }
        read_frame(&mut self.read, len, &mut self.token).await?;
        let plain = self.layer.open(&self.token)?;
        if self.taken == self.plain.len() {
            self.plain = plain;
            self.taken = 0;
        } else {
            self.plain.drain(..self.taken);
            self.taken = 0;
            self.plain.extend_from_slice(&plain);
        }
        Ok(())
    }

    /// The next plaintext bytes, at most `most` (at least one), reading
    /// a token if none are left.
    async fn take(&mut self, most: usize) -> io::Result<&[u8]> {
        if self.taken == self.plain.len() {
            self.fill().await?;
        }
        let from = self.taken;
        self.taken += most.min(self.plain.len() - from);
        Ok(&self.plain[from..self.taken])
    }

    /// Fills `out` with the next plaintext bytes.
    pub(crate) async fn read_exact(&mut self, out: &mut [u8]) -> io::Result<()> {
        let mut filled = 0;
        while filled < out.len() {
            let bytes = self.take(out.len() - filled).await?;
            out[filled..filled + bytes.len()].copy_from_slice(bytes);
            filled += bytes.len();
        }
        Ok(())
    }

    /// The next `len` plaintext bytes, in `frame` (emptied first).
    pub(crate) async fn read_frame(&mut self, len: usize, frame: &mut Vec<u8>) -> io::Result<()> {
        frame.clear();
        while frame.len() < len {
            let bytes = self.take(len - frame.len()).await?;
            frame.extend_from_slice(bytes);
        }
        Ok(())
    }
}
