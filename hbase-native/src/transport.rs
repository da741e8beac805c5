//! A connection's byte stream as its calls see it: [`Security`] says
//! hello on a new TCP connection (TLS first if set, then the preamble, a
//! SASL exchange if the client authenticates, the connection header) and
//! gives back its two halves, [`Reader`] and [`Writer`], plain or through
//! a Kerberos security layer (integrity or privacy), which wraps every
//! byte each way.

use std::io;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

/// The host of a server's `host:port` (`[::1]:16020`: `::1`), what its
/// Kerberos principal and its TLS certificate name.
#[cfg(any(feature = "kerberos", feature = "tls"))]
pub(crate) fn host_of(server: &str) -> &str {
    server
        .rsplit_once(':')
        .map_or(server, |(h, _)| h)
        .trim_start_matches('[')
        .trim_end_matches(']')
}

/// One half of a stream, TCP or TLS.
pub(crate) type ReadHalf = Box<dyn AsyncRead + Send + Unpin>;
/// The other half.
pub(crate) type WriteHalf = Box<dyn AsyncWrite + Send + Unpin>;

/// The read half.
pub(crate) enum Reader {
    Plain(ReadHalf),
    #[cfg(feature = "kerberos")]
    Sealed(Box<crate::kerberos::SealedReader>),
}

impl Reader {
    /// Fills `out`.
    pub(crate) async fn read_exact(&mut self, out: &mut [u8]) -> io::Result<()> {
        match self {
            Reader::Plain(read) => read.read_exact(out).await.map(drop),
            #[cfg(feature = "kerberos")]
            Reader::Sealed(read) => read.read_exact(out).await,
        }
    }

    /// The next `len` bytes in `frame` (see
    /// [`read_frame`](crate::connection::read_frame)).
    pub(crate) async fn read_frame(&mut self, len: usize, frame: &mut Vec<u8>) -> io::Result<()> {
        match self {
            Reader::Plain(read) => crate::connection::read_frame(read, len, frame).await,
            #[cfg(feature = "kerberos")]
            Reader::Sealed(read) => read.read_frame(len, frame).await,
        }
    }
}

/// The write half.
pub(crate) enum Writer {
    Plain(WriteHalf),
    #[cfg(feature = "kerberos")]
    Sealed(crate::kerberos::SealedWriter),
}

impl Writer {
    /// Sends `bytes` whole.
    pub(crate) async fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self {
            Writer::Plain(write) => {
                write.write_all(bytes).await?;
                // A TLS stream keeps what it was given until flushed.
                write.flush().await
            }
            #[cfg(feature = "kerberos")]
            Writer::Sealed(write) => write.write_all(bytes).await,
        }
    }
}

/// How connections are secured and authenticate: TLS or not; SIMPLE as
/// `Options::user`, a delegation token, or Kerberos with a login made
/// once for the client.
#[derive(Default)]
pub(crate) struct Security {
    token: Option<crate::Token>,
    #[cfg(feature = "tls")]
    tls: Option<(
        crate::Tls,
        tokio::sync::OnceCell<std::sync::Arc<tokio_rustls::rustls::ClientConfig>>,
    )>,
    #[cfg(feature = "kerberos")]
    kerberos: Option<(
        crate::kerberos::Kerberos,
        tokio::sync::OnceCell<crate::kerberos::Login>,
    )>,
}

/// How a connection is secured, as its reader needs to know.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Secured {
    /// Inside TLS.
    pub(crate) tls: bool,
    /// Authenticated by SASL (Kerberos or a token).
    pub(crate) sasl: bool,
}

impl Security {
    /// How this client's connections are secured.
    pub(crate) fn secured(&self) -> Secured {
        #[cfg(feature = "kerberos")]
        let kerberos = self.kerberos.is_some();
        #[cfg(not(feature = "kerberos"))]
        let kerberos = false;
        #[cfg(feature = "tls")]
        let tls = self.tls.is_some();
        #[cfg(not(feature = "tls"))]
        let tls = false;
        Secured {
            tls,
            sasl: kerberos || self.token.is_some(),
        }
    }

    pub(crate) fn new(options: &crate::Options) -> Security {
        Security {
            token: options.token.clone(),
            #[cfg(feature = "tls")]
            tls: options
                .tls
                .clone()
                .map(|t| (t, tokio::sync::OnceCell::new())),
            #[cfg(feature = "kerberos")]
            kerberos: options
                .kerberos
                .clone()
                .map(|k| (k, tokio::sync::OnceCell::new())),
        }
    }

    /// Reads the TLS files and logs in to Kerberos now, if the client uses
    /// them (a keytab is read and the KDC asked once), so that a wrong
    /// file fails at connect.
    pub(crate) async fn login(&self, server: &str) -> crate::Result<()> {
        #[cfg(feature = "kerberos")]
        if let (Some(_), Some((kerberos, _))) = (&self.token, &self.kerberos) {
            if kerberos.min_protection > crate::Protection::Authentication {
                return Err(crate::Error::Authentication {
                    server: server.to_owned(),
                    why: format!(
                        "a delegation token is used before Kerberos, and a token authenticates \
                         only: it cannot give Kerberos::min_protection {}; set one or the other",
                        kerberos.min_protection
                    ),
                });
            }
        }
        #[cfg(feature = "tls")]
        if let Some((tls, config)) = &self.tls {
            tls_config(server, tls, config).await?;
        }
        #[cfg(feature = "kerberos")]
        if let (None, Some((kerberos, login))) = (&self.token, &self.kerberos) {
            login_once(server, kerberos, login).await?;
        }
        let _ = server;
        Ok(())
    }

    /// Says hello on a new connection to `service` on `server`: TLS if
    /// set, the preamble, any SASL exchange, the connection header.
    /// Returns the halves the calls use.
    pub(crate) async fn hello(
        &self,
        server: &str,
        service: &str,
        user: &str,
        stream: TcpStream,
    ) -> crate::Result<(Reader, Writer)> {
        let (mut read, mut write) = self.secure(server, stream).await?;
        let header_error = |e: io::Error| crate::Error::connection(server, e.to_string());
        if let Some(token) = &self.token {
            crate::sasl::token_handshake(server, &mut read, &mut write, token).await?;
            let mut write = Writer::Plain(write);
            write
                .write_all(&crate::wire::connection_header(service, None))
                .await
                .map_err(header_error)?;
            return Ok((Reader::Plain(read), write));
        }
        #[cfg(feature = "kerberos")]
        if let Some((kerberos, login)) = &self.kerberos {
            return kerberos_hello(server, service, kerberos, login, read, write).await;
        }
        let mut write = Writer::Plain(write);
        write
            .write_all(&crate::wire::hello(service, user))
            .await
            .map_err(header_error)?;
        Ok((Reader::Plain(read), write))
    }

    /// The stream's halves, through TLS if the client speaks it.
    async fn secure(
        &self,
        server: &str,
        stream: TcpStream,
    ) -> crate::Result<(ReadHalf, WriteHalf)> {
        #[cfg(feature = "tls")]
        if let Some((tls, config)) = &self.tls {
            let config = tls_config(server, tls, config).await?;
            let stream = crate::tls::connect(config, tls, server, stream).await?;
            let (read, write) = tokio::io::split(stream);
            return Ok((Box::new(read), Box::new(write)));
        }
        let _ = server;
        let (read, write) = stream.into_split();
        Ok((Box::new(read), Box::new(write)))
    }
}

#[cfg(feature = "tls")]
async fn tls_config<'a>(
    server: &str,
    tls: &crate::Tls,
    config: &'a tokio::sync::OnceCell<std::sync::Arc<tokio_rustls::rustls::ClientConfig>>,
) -> crate::Result<&'a std::sync::Arc<tokio_rustls::rustls::ClientConfig>> {
    config
        .get_or_try_init(|| async {
            tls.config().map_err(|why| crate::Error::Tls {
                server: server.to_owned(),
                why,
            })
        })
        .await
}

#[cfg(feature = "kerberos")]
async fn login_once<'a>(
    server: &str,
    kerberos: &crate::kerberos::Kerberos,
    login: &'a tokio::sync::OnceCell<crate::kerberos::Login>,
) -> crate::Result<&'a crate::kerberos::Login> {
    login
        .get_or_try_init(|| async {
            let kerberos = kerberos.clone();
            match tokio::task::spawn_blocking(move || crate::kerberos::Login::new(&kerberos)).await
            {
                Ok(login) => login.map_err(|why| crate::kerberos::login_error(server, why)),
                Err(e) => Err(crate::Error::connection(
                    server,
                    format!("the Kerberos login task failed: {e}"),
                )),
            }
        })
        .await
}

#[cfg(feature = "kerberos")]
async fn kerberos_hello(
    server: &str,
    service: &str,
    kerberos: &crate::kerberos::Kerberos,
    login: &tokio::sync::OnceCell<crate::kerberos::Login>,
    mut read: ReadHalf,
    mut write: WriteHalf,
) -> crate::Result<(Reader, Writer)> {
    use crate::kerberos::{handshake, SealedReader, SealedWriter, PREAMBLE};
    let login = login_once(server, kerberos, login).await?;
    write
        .write_all(&PREAMBLE)
        .await
        .map_err(|e| crate::Error::connection(server, e.to_string()))?;
    // The masters serve both (ClientMetaService is the master registry's).
    let master =
        service == crate::servers::MASTER_SERVICE || service == crate::servers::META_SERVICE;
    let layer = handshake(server, &mut read, &mut write, kerberos, login, master).await?;
    let header = crate::wire::connection_header(service, None);
    let (read, mut write) = match layer {
        None => (Reader::Plain(read), Writer::Plain(write)),
        Some(layer) => (
            Reader::Sealed(Box::new(SealedReader::new(read, layer.clone()))),
            Writer::Sealed(SealedWriter::new(write, layer)),
        ),
    };
    write
        .write_all(&header)
        .await
        .map_err(|e| crate::Error::connection(server, e.to_string()))?;
    Ok((read, write))
}
