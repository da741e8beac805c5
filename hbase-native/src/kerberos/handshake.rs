//! HBase's SASL exchange with GSSAPI (Kerberos), on a new connection after
//! its preamble and before its connection header (HBase's
//! `HBaseSaslRpcClient` and `ServerRpcConnection`):
//! - the client sends each SASL token as a 4-byte big-endian length and
//!   the token;
//! - the server answers each with a 4-byte status: 0 (success), then a
//!   4-byte length and a token (or -88, "switch to SIMPLE", from a server
//!   without security); else an error, as two Hadoop `WritableUtils`
//!   strings (the exception's class and its message);
//! - after the GSSAPI context, RFC 4752's security-layer negotiation: the
//!   client sends an empty token, the server a wrapped offer (a byte of
//!   levels and its largest buffer), the client its wrapped choice.

use super::layer::Layer;
use super::login::{explain, Login};
use super::{Kerberos, Protection};
use crate::error::{Error, RemoteException, Result};
use libgssapi::context::{ClientCtx, CtxFlags, SecurityContext};
use libgssapi::name::Name;
use libgssapi::oid::{GSS_MECH_KRB5, GSS_NT_KRB5_PRINCIPAL};
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

/// `HBas`, RPC version 0, auth KERBEROS (81).
pub(crate) const PREAMBLE: [u8; 6] = *b"HBas\x00\x51";

/// What a server without security answers in place of a token length.
const SWITCH_TO_SIMPLE_AUTH: i32 = -88;

/// The largest SASL token or error string taken from a server.
const MAX_TOKEN: usize = 1 << 20;

/// The largest wrap token this client takes (RFC 4752's 3-byte field).
const CLIENT_MAX_BUFFER: u32 = 0x00ff_ffff;

/// Runs the exchange on a connection whose preamble went out; returns the
/// security layer to use after it, `None` for authentication only.
pub(crate) async fn handshake<R, W>(
    server: &str,
    read: &mut R,
    write: &mut W,
    kerberos: &Kerberos,
    login: &Login,
    master: bool,
) -> Result<Option<Arc<Layer>>>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let fail = |why: String| Error::Authentication {
        server: server.to_owned(),
        why,
    };
    let principal = kerberos.principal_for(server, master);
    // The first token asks the KDC for a service ticket: a blocking call.
    let (login2, target) = (login.clone(), principal.clone());
    let (mut ctx, first) = tokio::task::spawn_blocking(move || start(&login2, &target))
        .await
        .map_err(|e| fail(format!("the Kerberos login task failed: {e}")))?
        .map_err(&fail)?;
    send(write, &first).await.map_err(|e| io(server, e))?;
    // The context: the server's tokens until GSSAPI has what it needs.
    loop {
        let token = reply(server, read).await?;
        match ctx.step(Some(&token), None) {
            Ok(Some(out)) => send(write, &out).await.map_err(|e| io(server, e))?,
            Ok(None) => break,
            Err(e) => return Err(fail(explain(&e, Some(&principal), None))),
        }
        if ctx.is_complete() {
            break;
        }
    }
    // RFC 4752: an empty token asks for the server's offer.
    send(write, &[]).await.map_err(|e| io(server, e))?;
    let offer = reply(server, read).await?;
    let offer = ctx
        .unwrap(&offer)
        .map_err(|e| fail(format!("the server's security-layer offer: {e}")))?;
    let Some(&[levels, a, b, c]) = offer.get(..4).map(|o| <&[u8; 4]>::try_from(o).unwrap()) else {
        return Err(fail(format!(
            "a security-layer offer of {} bytes, not 4",
            offer.len()
        )));
    };
    let server_max = u32::from_be_bytes([0, a, b, c]) as usize;
    let chosen = [
        Protection::Privacy,
        Protection::Integrity,
        Protection::Authentication,
    ]
    .into_iter()
    .find(|p| levels & p.layer_bit() != 0 && *p >= kerberos.min_protection)
    .ok_or_else(|| {
        let offered: Vec<&str> = [
            Protection::Authentication,
            Protection::Integrity,
            Protection::Privacy,
        ]
        .into_iter()
        .filter(|p| levels & p.layer_bit() != 0)
        .map(Protection::hbase_name)
        .collect();
        fail(format!(
            "the server offers hbase.rpc.protection {} and this client insists on at \
                 least {} (Kerberos::min_protection)",
            offered.join(", "),
            kerberos.min_protection
        ))
    })?;
    let max = if chosen == Protection::Authentication {
        0
    } else {
        CLIENT_MAX_BUFFER
    };
    let mut choice = max.to_be_bytes();
    choice[0] = chosen.layer_bit();
    let choice = ctx
        .wrap(false, &choice)
        .map_err(|e| fail(format!("wrapping the security-layer choice: {e}")))?;
    send(write, &choice).await.map_err(|e| io(server, e))?;
    Ok(match chosen {
        Protection::Authentication => None,
        level => Some(Layer::new(ctx, level == Protection::Privacy, server_max)),
    })
}

/// The credentials, the context and its first token.
fn start(login: &Login, principal: &str) -> std::result::Result<(ClientCtx, Vec<u8>), String> {
    let cred = login.cred()?;
    let keytab = login.keytab_principal();
    let target = Name::new(principal.as_bytes(), Some(&GSS_NT_KRB5_PRINCIPAL))
        .map_err(|e| format!("the service principal {principal:?}: {e}"))?;
    let mut ctx = ClientCtx::new(
        Some(cred),
        target,
        CtxFlags::GSS_C_MUTUAL_FLAG | CtxFlags::GSS_C_INTEG_FLAG | CtxFlags::GSS_C_CONF_FLAG,
        Some(&GSS_MECH_KRB5),
    );
    match ctx.step(None, None) {
        Ok(Some(token)) => Ok((ctx, token.to_vec())),
        Ok(None) => Err("GSSAPI gave no first token".into()),
        Err(e) => Err(explain(&e, Some(principal), keytab)),
    }
}

/// A connection that broke during the exchange: a network failure,
/// retried as any other (no call went out on it). A server that refuses
/// says so first (`reply`).
fn io(server: &str, e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        return Error::connection(
            server,
            "the server closed the connection during the SASL exchange",
        );
    }
    Error::connection(server, e.to_string())
}

/// Sends one SASL token.
async fn send<W: AsyncWrite + Unpin>(write: &mut W, token: &[u8]) -> std::io::Result<()> {
    let mut out = Vec::with_capacity(4 + token.len());
    out.extend_from_slice(&(token.len() as u32).to_be_bytes());
    out.extend_from_slice(token);
    write.write_all(&out).await
}

/// The server's answer to a token: its token, or why it refused.
async fn reply<R: AsyncRead + Unpin>(server: &str, read: &mut R) -> Result<Vec<u8>> {
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
                  connect without Options::kerberos"
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
