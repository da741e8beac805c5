//! [`Token`]: an HBase delegation token, and how a client gets one.
//!
//! A client logged in with Kerberos asks the cluster for a token
//! ([`Client::authentication_token`]; HBase's `TokenProvider` coprocessor,
//! `AuthenticationService.GetAuthenticationToken`); another client, a
//! job's worker that holds no keytab, connects with only that token
//! ([`Options::token`](crate::Options::token); SASL DIGEST-MD5). A token
//! is the user's credentials for its life: keep it as a secret.

use crate::error::{Error, Result};
use crate::proto;
use crate::servers::{Servers, CLIENT_SERVICE};
use crate::Client;
use prost::Message;
use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// An HBase delegation token: its identifier (which names the user and
/// when it expires), its password, and the service it is for.
#[derive(Clone, PartialEq, Eq)]
pub struct Token {
    identifier: Vec<u8>,
    password: Vec<u8>,
    service: Vec<u8>,
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Token")
            .field("username", &self.username())
            .field("expires", &self.expires())
            .field("password", &"<hidden>")
            .finish_non_exhaustive()
    }
}

impl Token {
    /// The token as bytes (HBase's `Token` message), to hand to another
    /// process; [`Token::from_bytes`] reads them back.
    pub fn to_bytes(&self) -> Vec<u8> {
        proto::Token {
            identifier: Some(self.identifier.clone()),
            password: Some(self.password.clone()),
            service: Some(self.service.clone()),
        }
        .encode_to_vec()
    }

    /// A token from [`Token::to_bytes`]; an error if the bytes are not
    /// one (a token needs an identifier and a password).
    pub fn from_bytes(bytes: &[u8]) -> Result<Token> {
        let invalid = |why: &str| Error::InvalidToken {
            why: why.to_owned(),
        };
        let token = proto::Token::decode(bytes).map_err(|e| invalid(&e.to_string()))?;
        Token::from_proto(token).ok_or_else(|| invalid("no identifier or no password"))
    }

    fn from_proto(token: proto::Token) -> Option<Token> {
        let (identifier, password) = (token.identifier?, token.password?);
        if identifier.is_empty() || password.is_empty() {
            return None;
        }
        Some(Token {
            identifier,
            password,
            service: token.service.unwrap_or_default(),
        })
    }

    /// The identifier's `TokenIdentifier`: HBase writes it as a 4-byte
    /// big-endian length and the message (`AuthenticationTokenIdentifier`).
    fn parsed(&self) -> Option<proto::TokenIdentifier> {
        let (len, message) = self.identifier.split_first_chunk::<4>()?;
        if u32::from_be_bytes(*len) as usize != message.len() {
            return None;
        }
        proto::TokenIdentifier::decode(message).ok()
    }

    /// The user the token stands for, as its identifier names them.
    pub fn username(&self) -> Option<String> {
        self.parsed()
            .map(|id| String::from_utf8_lossy(&id.username).into_owned())
    }

    /// When the token stops being accepted, as its identifier says.
    pub fn expires(&self) -> Option<SystemTime> {
        let ms = self.parsed()?.expiration_date?;
        UNIX_EPOCH.checked_add(Duration::from_millis(u64::try_from(ms).ok()?))
    }

    /// SASL DIGEST-MD5's user name: the identifier in base64.
    pub(crate) fn sasl_username(&self) -> String {
        base64(&self.identifier)
    }

    /// SASL DIGEST-MD5's password: the password in base64.
    pub(crate) fn sasl_password(&self) -> String {
        base64(&self.password)
    }
}

/// Standard base64 with padding, as Java's `Base64.encodeBase64` writes
/// the token's parts for SASL.
fn base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

impl Client {
    /// A delegation token for the user this client authenticated as, from
    /// the cluster's `TokenProvider` coprocessor (on the region server of
    /// `hbase:meta`). The client must have logged in with Kerberos: HBase
    /// gives tokens to no one else.
    pub async fn authentication_token(&self) -> Result<Token> {
        self.run(|cluster, policy| async move {
            let request = proto::CoprocessorServiceRequest {
                region: Servers::region(crate::locate::META_REGION),
                call: proto::CoprocessorServiceCall {
                    row: Vec::new(),
                    service_name: "AuthenticationService".into(),
                    method_name: "GetAuthenticationToken".into(),
                    request: proto::GetAuthenticationTokenRequest {}.encode_to_vec(),
                },
            };
            let answer = cluster
                .retrying(&policy, None, || async {
                    let meta = cluster.meta_server().await?;
                    cluster
                        .call::<proto::CoprocessorServiceResponse>(
                            &meta,
                            CLIENT_SERVICE,
                            "ExecService",
                            &request,
                            policy.timeout(),
                        )
                        .await
                })
                .await
                .map_err(no_provider)?;
            let (answer, _) = answer;
            let value = answer.value.value.unwrap_or_default();
            let token = proto::GetAuthenticationTokenResponse::decode(value.as_slice())
                .map_err(|e| Error::InvalidToken {
                    why: format!("the cluster's answer: {e}"),
                })?
                .token
                .and_then(Token::from_proto);
            token.ok_or_else(|| Error::InvalidToken {
                why: "the cluster gave no token: only a client that logged in with Kerberos \
                      gets one (Options::kerberos)"
                    .into(),
            })
        })
        .await
    }
}

/// A cluster without the coprocessor that issues tokens, said so.
fn no_provider(e: Error) -> Error {
    match e.remote() {
        Some(r) if r.class.contains("UnknownProtocolException") => Error::InvalidToken {
            why: format!(
                "the cluster issues no delegation tokens: its region servers need the \
                 TokenProvider coprocessor (hbase.coprocessor.region.classes = \
                 org.apache.hadoop.hbase.security.token.TokenProvider); it said {r}"
            ),
        },
        _ => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_goes_to_bytes_and_back_and_hides_its_password() {
        let identifier = proto::TokenIdentifier {
            kind: 0,
            username: b"rowkey@EXAMPLE.COM".to_vec(),
            key_id: 3,
            issue_date: Some(1_000),
            expiration_date: Some(86_401_000),
            sequence_number: Some(7),
        }
        .encode_to_vec();
        let identifier = [&(identifier.len() as u32).to_be_bytes()[..], &identifier].concat();
        let token = Token {
            identifier,
            password: vec![1, 2, 3],
            service: b"cluster".to_vec(),
        };
        assert_eq!(Token::from_bytes(&token.to_bytes()).unwrap(), token);
        assert_eq!(token.username().as_deref(), Some("rowkey@EXAMPLE.COM"));
        assert_eq!(
            token.expires(),
            Some(UNIX_EPOCH + Duration::from_millis(86_401_000))
        );
        let shown = format!("{token:?}");
        assert!(
            shown.contains("<hidden>") && !shown.contains("[1, 2, 3]"),
            "{shown}"
        );
        assert_eq!(token.sasl_password(), "AQID");
        assert!(matches!(
            Token::from_bytes(b"\xff\xff"),
            Err(Error::InvalidToken { .. })
        ));
        assert!(Token::from_bytes(&[]).is_err());
    }
}
