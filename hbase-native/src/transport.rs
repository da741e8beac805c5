//! [`Reader`] and [`Writer`]: the two halves of a connection's byte
//! stream as its calls see them, plain or through a Kerberos security
//! layer (integrity or privacy), which wraps every byte each way.

use std::io;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};

/// The read half.
pub(crate) enum Reader {
    Plain(OwnedReadHalf),
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
    Plain(OwnedWriteHalf),
    #[cfg(feature = "kerberos")]
    Sealed(crate::kerberos::SealedWriter),
}

impl Writer {
    /// Sends `bytes` whole.
    pub(crate) async fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self {
            Writer::Plain(write) => write.write_all(bytes).await,
            #[cfg(feature = "kerberos")]
            Writer::Sealed(write) => write.write_all(bytes).await,
        }
    }
}

/// How connections authenticate: SIMPLE as `Options::user`, or Kerberos
/// with a login made once for the client.
#[derive(Default)]
pub(crate) struct Security {
    token: Option<crate::Token>,
    #[cfg(feature = "kerberos")]
    kerberos: Option<(
        crate::kerberos::Kerberos,
        tokio::sync::OnceCell<crate::kerberos::Login>,
    )>,
}

impl Security {
    pub(crate) fn new(options: &crate::Options) -> Security {
        Security {
            token: options.token.clone(),
            #[cfg(feature = "kerberos")]
            kerberos: options
                .kerberos
                .clone()
                .map(|k| (k, tokio::sync::OnceCell::new())),
        }
    }

    /// Logs in now if the client uses Kerberos (a keytab is read and the
    /// KDC asked once), so that a wrong keytab fails at connect.
    pub(crate) async fn login(&self, server: &str) -> crate::Result<()> {
        #[cfg(feature = "kerberos")]
        if let (None, Some((kerberos, login))) = (&self.token, &self.kerberos) {
            login_once(server, kerberos, login).await?;
        }
        #[cfg(not(feature = "kerberos"))]
        let _ = server;
        Ok(())
    }

    /// Says hello on a new connection to `service` on `server` (after its
    /// TCP connect): the preamble, any SASL exchange, the connection
    /// header. Returns the halves the calls use.
    pub(crate) async fn hello(
        &self,
        server: &str,
        service: &str,
        user: &str,
        read: OwnedReadHalf,
        mut write: OwnedWriteHalf,
    ) -> crate::Result<(Reader, Writer)> {
        if let Some(token) = &self.token {
            let mut read = read;
            crate::sasl::token_handshake(server, &mut read, &mut write, token).await?;
            write
                .write_all(&crate::wire::connection_header(service, None))
                .await
                .map_err(|e| crate::Error::connection(server, e.to_string()))?;
            return Ok((Reader::Plain(read), Writer::Plain(write)));
        }
        #[cfg(feature = "kerberos")]
        if let Some((kerberos, login)) = &self.kerberos {
            return kerberos_hello(server, service, kerberos, login, read, write).await;
        }
        write
            .write_all(&crate::wire::hello(service, user))
            .await
            .map_err(|e| crate::Error::connection(server, e.to_string()))?;
        Ok((Reader::Plain(read), Writer::Plain(write)))
    }
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
            tokio::task::spawn_blocking(move || crate::kerberos::Login::new(&kerberos))
                .await
                .map_err(|e| e.to_string())
                .and_then(|r| r)
                .map_err(|why| crate::Error::Authentication {
                    server: server.to_owned(),
                    why,
                })
        })
        .await
}

#[cfg(feature = "kerberos")]
async fn kerberos_hello(
    server: &str,
    service: &str,
    kerberos: &crate::kerberos::Kerberos,
    login: &tokio::sync::OnceCell<crate::kerberos::Login>,
    mut read: OwnedReadHalf,
    mut write: OwnedWriteHalf,
) -> crate::Result<(Reader, Writer)> {
    use crate::kerberos::{handshake, SealedReader, SealedWriter, PREAMBLE};
    let login = login_once(server, kerberos, login).await?;
    write
        .write_all(&PREAMBLE)
        .await
        .map_err(|e| crate::Error::connection(server, e.to_string()))?;
    let master = service == crate::servers::MASTER_SERVICE;
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
