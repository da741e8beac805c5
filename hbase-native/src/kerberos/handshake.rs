//! HBase's SASL exchange with GSSAPI (Kerberos), on a new connection after
//! its preamble and before its connection header (HBase's
//! `HBaseSaslRpcClient` and `NettyHBaseSaslRpcServerHandler`), in the
//! framing of `crate::sasl::frames`: the GSSAPI context's tokens, then
//! RFC 4752's security-layer negotiation: the client sends an empty
//! token, the server a wrapped offer (a byte of levels and its largest
//! buffer), the client its wrapped choice. The server answers that last
//! token with nothing.

use super::layer::Layer;
use super::login::{explain, Login};
use super::{Kerberos, Protection};
use crate::error::{Error, Result};
use crate::sasl::frames::{io, reply, send};
use libgssapi::context::{ClientCtx, CtxFlags, SecurityContext};
use libgssapi::name::Name;
use libgssapi::oid::{GSS_MECH_KRB5, GSS_NT_KRB5_PRINCIPAL};
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};

/// `HBas`, RPC version 0, auth KERBEROS (81).
pub(crate) const PREAMBLE: [u8; 6] = *b"HBas\x00\x51";

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
        .map_err(|e| Error::connection(server, format!("the Kerberos login task failed: {e}")))?
        .map_err(|why| super::login_error(server, why))?;
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
        // Replay and sequence detection, as Java's client asks: a wrap
        // token sent again, or out of order, is refused both ways.
        CtxFlags::GSS_C_MUTUAL_FLAG
            | CtxFlags::GSS_C_INTEG_FLAG
            | CtxFlags::GSS_C_CONF_FLAG
            | CtxFlags::GSS_C_REPLAY_FLAG
            | CtxFlags::GSS_C_SEQUENCE_FLAG,
        Some(&GSS_MECH_KRB5),
    );
    match ctx.step(None, None) {
        Ok(Some(token)) => Ok((ctx, token.to_vec())),
        Ok(None) => Err("GSSAPI gave no first token".into()),
        Err(e) => Err(explain(&e, Some(principal), keytab)),
    }
}
