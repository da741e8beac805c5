//! SASL on HBase's RPC, whatever the credentials: the exchange's framing
//! (`frames.rs`), and delegation tokens' DIGEST-MD5 (`digest.rs`, run
//! here). Kerberos's GSSAPI, which needs MIT Kerberos, is `crate::kerberos`.

pub(crate) mod digest;
pub(crate) mod frames;

use crate::error::{Error, Result};
use crate::token::Token;
use frames::{io, reply, send};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};

/// `HBas`, RPC version 0, auth DIGEST (82): a delegation token.
pub(crate) const TOKEN_PREAMBLE: [u8; 6] = *b"HBas\x00\x52";

/// Authenticates a new connection with `token` (DIGEST-MD5, `qop=auth`):
/// the preamble, an empty first token (DIGEST-MD5 has no initial
/// response), the server's challenge, the client's response, the server's
/// `rspauth`, checked. Frames go as they are after it.
pub(crate) async fn token_handshake<R, W>(
    server: &str,
    read: &mut R,
    write: &mut W,
    token: &Token,
) -> Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let fail = |why: String| Error::Authentication {
        server: server.to_owned(),
        why: format!("with a delegation token: {why}"),
    };
    write
        .write_all(&TOKEN_PREAMBLE)
        .await
        .map_err(|e| io(server, e))?;
    write.flush().await.map_err(|e| io(server, e))?;
    send(write, &[]).await.map_err(|e| io(server, e))?;
    let refused = |e: Error| match e {
        Error::Authentication { server, why } => Error::Authentication {
            server,
            why: format!("with a delegation token: {why}"),
        },
        e => e,
    };
    let challenge = reply(server, read).await.map_err(refused)?;
    let challenge = String::from_utf8_lossy(&challenge);
    let answer = digest::respond(
        &challenge,
        &token.sasl_username(),
        &token.sasl_password(),
        &cnonce(),
        digest::DIGEST_URI,
    )
    .map_err(&fail)?;
    send(write, answer.response.as_bytes())
        .await
        .map_err(|e| io(server, e))?;
    let last = reply(server, read).await.map_err(refused)?;
    let last = digest::directives(&String::from_utf8_lossy(&last)).map_err(&fail)?;
    match last.iter().find(|(k, _)| k == "rspauth") {
        Some((_, rspauth)) if *rspauth == answer.rspauth => Ok(()),
        _ => Err(fail(
            "the server's DIGEST-MD5 answer did not prove it knows the token: is this the \
             cluster that issued it?"
                .into(),
        )),
    }
}

/// A client nonce: 16 random bytes in hex.
fn cnonce() -> String {
    let mut bytes = [0u8; 16];
    // A nonce from the clock if the system has no randomness to give:
    // unique, if guessable, which DIGEST-MD5's `auth` tolerates.
    if getrandom::getrandom(&mut bytes).is_err() {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        bytes = now.to_be_bytes();
    }
    digest::hex(&bytes)
}
