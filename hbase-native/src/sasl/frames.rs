//! The framing of HBase's SASL exchange, whatever the mechanism (HBase's
//! `HBaseSaslRpcClient` and `NettyHBaseSaslRpcServerHandler`):
//! - the client sends each SASL token as a 4-byte big-endian length and
//!   the token;
//! - the server answers a token that needs an answer with a 4-byte status:
//!   0 (success), then a 4-byte length and a token (or -88, "switch to
//!   SIMPLE", from a server without security); else an error, as two
//!   Hadoop `WritableUtils` strings (the exception's class and its
//!   message), and it closes the connection.

use crate::error::{Error, RemoteException, Result};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// What a server without security answers in place of a token length.
const SWITCH_TO_SIMPLE_AUTH: i32 = -88;

/// The largest SASL token or error string taken from a server.
const MAX_TOKEN: usize = 1 << 20;

/// A connection that broke during the exchange: a network failure,
/// retried as any other (no call went out on it). A server that refuses
/// says so first (`reply`).
pub(crate) fn io(server: &str, e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        return Error::connection(
            server,
            "the server closed the connection during the SASL exchange",
        );
    }
    Error::connection(server, e.to_string())
}

/// Sends one SASL token.
pub(crate) async fn send<W: AsyncWrite + Unpin>(
    write: &mut W,
    token: &[u8],
) -> std::io::Result<()> {
    let mut out = Vec::with_capacity(4 + token.len());
    out.extend_from_slice(&(token.len() as u32).to_be_bytes());
    out.extend_from_slice(token);
    write.write_all(&out).await?;
    // A TLS stream keeps what it was given until flushed.
    write.flush().await
}

/// The server's answer to a token: its token, or why it refused.
pub(crate) async fn reply<R: AsyncRead + Unpin>(server: &str, read: &mut R) -> Result<Vec<u8>> {
    let status = read.read_i32().await.map_err(|e| io(server, e))?;
    if status != 0 {
        let class = writable_string(read).await.map_err(|e| io(server, e))?;
        let message = writable_string(read).await.map_err(|e| io(server, e))?;
        let exception = RemoteException {
            class,
            message,
            do_not_retry: true,
        };
        return Err(Error::Authentication {
            server: server.to_owned(),
            why: format!("the server refused: {exception}"),
        });
    }
    let len = read.read_i32().await.map_err(|e| io(server, e))?;
    if len == SWITCH_TO_SIMPLE_AUTH {
        return Err(Error::Authentication {
            server: server.to_owned(),
            why: "the cluster does not use Kerberos (hbase.security.authentication=simple): \
                  connect without Options::kerberos or Options::token"
                .into(),
        });
    }
    let len = usize::try_from(len)
        .ok()
        .filter(|&l| l <= MAX_TOKEN)
        .ok_or_else(|| Error::protocol(server, format!("a SASL token of {len} bytes")))?;
    let mut token = vec![0; len];
    read.read_exact(&mut token)
        .await
        .map_err(|e| io(server, e))?;
    Ok(token)
}

/// A Hadoop `WritableUtils.writeString`: a 4-byte big-endian length, then
/// that many bytes of UTF-8; -1 is null.
async fn writable_string<R: AsyncRead + Unpin>(read: &mut R) -> std::io::Result<String> {
    let len = read.read_i32().await?;
    let Ok(len) = usize::try_from(len) else {
        return Ok(String::new());
    };
    if len > MAX_TOKEN {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("a string of {len} bytes"),
        ));
    }
    let mut bytes = vec![0; len];
    read.read_exact(&mut bytes).await?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn string_of(bytes: &[u8]) -> String {
        writable_string(&mut &bytes[..]).await.unwrap()
    }

    /// A server's answer cut at any byte is a broken connection, retried
    /// as one; a refusal and a server without security are not retried.
    #[tokio::test]
    async fn replies_cut_short_are_retried_and_refusals_are_not() {
        let token = b"\0\0\0\0\0\0\0\x03abc";
        assert_eq!(reply("s:1", &mut &token[..]).await.unwrap(), b"abc");
        for cut in 0..token.len() {
            let e = reply("s:1", &mut &token[..cut]).await.unwrap_err();
            assert!(e.is_retryable(), "cut at {cut}: {e:?}");
        }
        let mut refusal = b"\0\0\0\x01".to_vec();
        for text in ["javax.security.sasl.SaslException", "GSS initiate failed"] {
            refusal.extend_from_slice(&(text.len() as u32).to_be_bytes());
            refusal.extend_from_slice(text.as_bytes());
        }
        let e = reply("s:1", &mut &refusal[..]).await.unwrap_err();
        assert!(matches!(e, Error::Authentication { .. }) && !e.is_retryable());
        assert!(e.to_string().contains("GSS initiate failed"), "{e}");
        for cut in 0..refusal.len() {
            let e = reply("s:1", &mut &refusal[..cut]).await.unwrap_err();
            assert!(e.is_retryable(), "refusal cut at {cut}: {e:?}");
        }
        let simple = b"\0\0\0\0\xff\xff\xff\xa8";
        let e = reply("s:1", &mut &simple[..]).await.unwrap_err();
        assert!(e.to_string().contains("does not use Kerberos"), "{e}");
        assert!(!e.is_retryable());
        // A claimed length past the limit: no allocation, an error.
        let huge = b"\0\0\0\0\x7f\xff\xff\xff";
        assert!(reply("s:1", &mut &huge[..]).await.is_err());
    }

    #[tokio::test]
    async fn writable_strings_read_as_hadoop_writes_them() {
        assert_eq!(string_of(b"\0\0\0\x03abc").await, "abc");
        assert_eq!(string_of(b"\xff\xff\xff\xff").await, ""); // -1: null
                                                              // A length past the limit is an error, not an allocation.
        assert!(writable_string(&mut &b"\x7f\xff\xff\xff"[..])
            .await
            .is_err());
        // Cut short: an error.
        assert!(writable_string(&mut &b"\0\0\0\x05ab"[..]).await.is_err());
    }
}
