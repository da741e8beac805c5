//! TLS to HBase 2.6's RPC servers (`hbase.server.netty.tls.enabled`):
//! [`Tls`], what a client trusts and shows; the handshake runs on each new
//! connection before its preamble, and everything after it (SASL
//! included) goes inside.

use crate::error::{Error, Result};
use std::path::PathBuf;
use std::sync::Arc;
use tokio::net::TcpStream;
use tokio_rustls::rustls::{self, pki_types, ClientConfig, RootCertStore};

/// Whose certificates a client trusts.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TlsRoots {
    /// The CA certificates in a PEM file (`hbase.rpc.tls.truststore` of
    /// the cluster's own clients).
    CaFile(PathBuf),
    /// The operating system's trusted roots.
    System,
}

/// How a client speaks TLS to the servers, set with
/// [`Options::tls`](crate::Options::tls): the servers are verified
/// against [`TlsRoots`] and by name (each server's host as `hbase:meta`
/// names it, or [`Tls::server_name`]); a client certificate goes to a
/// cluster that asks for one (`hbase.server.netty.tls.client.auth.mode`).
///
/// ```
/// use hbase_native::Tls;
/// let tls = Tls::ca_file("/etc/hbase/tls/ca.pem")
///     .client_identity("/etc/hbase/tls/client.pem", "/etc/hbase/tls/client.key");
/// assert!(tls.client_identity.is_some());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tls {
    /// Whom to trust.
    pub roots: TlsRoots,
    /// A certificate chain and its private key (PEM files; the key PKCS#8,
    /// PKCS#1 or SEC1), for mutual TLS.
    pub client_identity: Option<(PathBuf, PathBuf)>,
    /// The name every server's certificate must be valid for; `None`: the
    /// server's own host name.
    pub server_name: Option<String>,
}

impl Tls {
    /// Trusting the CA certificates in the PEM file at `path`.
    pub fn ca_file(path: impl Into<PathBuf>) -> Tls {
        Tls {
            roots: TlsRoots::CaFile(path.into()),
            client_identity: None,
            server_name: None,
        }
    }

    /// Trusting the operating system's roots.
    pub fn system_roots() -> Tls {
        Tls {
            roots: TlsRoots::System,
            client_identity: None,
            server_name: None,
        }
    }

    /// The same, showing the certificate chain in `cert` (PEM) with the
    /// private key in `key` (PEM) to servers that ask.
    pub fn client_identity(mut self, cert: impl Into<PathBuf>, key: impl Into<PathBuf>) -> Tls {
        self.client_identity = Some((cert.into(), key.into()));
        self
    }

    /// The same, checking every server's certificate against `name`.
    pub fn server_name(mut self, name: impl Into<String>) -> Tls {
        self.server_name = Some(name.into());
        self
    }

    /// The rustls configuration: the roots and the identity read now.
    pub(crate) fn config(&self) -> std::result::Result<Arc<ClientConfig>, String> {
        use pki_types::pem::PemObject;
        let mut roots = RootCertStore::empty();
        match &self.roots {
            TlsRoots::CaFile(path) => {
                let certs = pki_types::CertificateDer::pem_file_iter(path)
                    .map_err(|e| format!("the CA file {}: {e}", path.display()))?;
                for cert in certs {
                    let cert = cert.map_err(|e| format!("the CA file {}: {e}", path.display()))?;
                    roots
                        .add(cert)
                        .map_err(|e| format!("a CA certificate in {}: {e}", path.display()))?;
                }
                if roots.is_empty() {
                    return Err(format!("no certificate in the CA file {}", path.display()));
                }
            }
            TlsRoots::System => {
                let found = rustls_native_certs::load_native_certs();
                roots.add_parsable_certificates(found.certs);
                if roots.is_empty() {
                    return Err("no trusted roots found on this system".into());
                }
            }
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_root_certificates(roots);
        let config = match &self.client_identity {
            None => builder.with_no_client_auth(),
            Some((cert, key)) => {
                let chain: Vec<_> = pki_types::CertificateDer::pem_file_iter(cert)
                    .and_then(|certs| certs.collect::<std::result::Result<_, _>>())
                    .map_err(|e| format!("the client certificate {}: {e}", cert.display()))?;
                let key = pki_types::PrivateKeyDer::from_pem_file(key)
                    .map_err(|e| format!("the client key {}: {e}", key.display()))?;
                builder
                    .with_client_auth_cert(chain, key)
                    .map_err(|e| format!("the client certificate and key: {e}"))?
            }
        };
        Ok(Arc::new(config))
    }
}

/// Runs the TLS handshake on `stream` to `server` (`host:port`).
pub(crate) async fn connect(
    config: &Arc<ClientConfig>,
    tls: &Tls,
    server: &str,
    stream: TcpStream,
) -> Result<tokio_rustls::client::TlsStream<TcpStream>> {
    let host = crate::transport::host_of(server);
    let name = tls.server_name.as_deref().unwrap_or(host).to_owned();
    let server_name = pki_types::ServerName::try_from(name.clone()).map_err(|e| Error::Tls {
        server: server.to_owned(),
        why: format!("{name:?} is no server name: {e}"),
    })?;
    tokio_rustls::TlsConnector::from(config.clone())
        .connect(server_name, stream)
        .await
        .map_err(|e| handshake_error(server, &name, e))
}

/// A failed handshake: what TLS said, and what to do about it; a
/// connection that merely broke is a connection error, retried.
fn handshake_error(server: &str, name: &str, e: std::io::Error) -> Error {
    let Some(tls) = e.get_ref().and_then(|i| i.downcast_ref::<rustls::Error>()) else {
        return Error::connection(server, format!("during the TLS handshake: {e}"));
    };
    Error::Tls {
        server: server.to_owned(),
        why: describe(tls, name),
    }
}

/// A TLS error met after the handshake, on a connection's reads: under TLS
/// 1.3 the server's refusal of a client certificate comes then.
pub(crate) fn stream_error(server: &str, e: &std::io::Error) -> Option<Error> {
    let tls = e.get_ref()?.downcast_ref::<rustls::Error>()?;
    Some(Error::Tls {
        server: server.to_owned(),
        why: describe(tls, crate::transport::host_of(server)),
    })
}

/// What TLS said, and what to do about it.
fn describe(tls: &rustls::Error, name: &str) -> String {
    use rustls::{AlertDescription as Alert, CertificateError as Cert};
    let why = match tls {
        rustls::Error::InvalidCertificate(Cert::NotValidForName)
        | rustls::Error::InvalidCertificate(Cert::NotValidForNameContext { .. }) => format!(
            "the server's certificate is not valid for the name {name:?}: check the \
             certificate's names, or Tls::server_name ({tls})"
        ),
        rustls::Error::InvalidCertificate(Cert::UnknownIssuer) => format!(
            "the server's certificate is not signed by a CA this client trusts: check \
             Tls::ca_file ({tls})"
        ),
        rustls::Error::InvalidCertificate(Cert::Expired)
        | rustls::Error::InvalidCertificate(Cert::ExpiredContext { .. }) => {
            format!("the server's certificate has expired ({tls})")
        }
        rustls::Error::AlertReceived(Alert::BadCertificate | Alert::CertificateRequired) => {
            format!(
                "the server wants a client certificate it trusts \
                 (hbase.server.netty.tls.client.auth.mode): set Tls::client_identity ({tls})"
            )
        }
        rustls::Error::InvalidMessage(_) => format!(
            "the server does not speak TLS (it answered in plaintext): connect without \
             Options::tls ({tls})"
        ),
        other => format!("the TLS handshake failed: {other}"),
    };
    why
}
