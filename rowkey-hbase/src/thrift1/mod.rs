//! HBase's Thrift 1 gateway (`org.apache.hadoop.hbase.thrift.ThriftServer`,
//! `service Hbase`) as a gateway wire: hbase-thrift's synchronous client
//! over a TCP socket, with the buffered transport and the binary protocol
//! the server speaks by default.
//!
//! Everything Thrift 1's own is here: its client and structs, its scanner
//! calls, its errors. What any HBase gateway shares is `crate::gateway`.

mod connection;
mod errors;

pub(crate) use connection::Thrift1Connection;

use crate::gateway::{Connection, Connector, GatewayError};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

/// The longest a new connection's first call may take: a server that
/// does not answer it is taken as the wrong kind of server, not waited on.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Opens Thrift 1 connections to one server.
#[derive(Debug, Clone)]
pub(crate) struct Thrift1Connector {
    /// `host:port`, as given.
    pub(crate) address: String,
    pub(crate) connect_timeout: Duration,
    /// A call that hears nothing for this long fails (the connection is
    /// then dropped and the call retried).
    pub(crate) read_timeout: Duration,
}

impl Connector for Thrift1Connector {
    type Connection = Thrift1Connection;

    fn connect(&self) -> Result<Thrift1Connection, GatewayError> {
        let socket = self.open_socket()?;
        let handshake = self.read_timeout.min(HANDSHAKE_TIMEOUT);
        let mut connection = Thrift1Connection::new(socket, handshake)?;
        connection.handshake(&self.address, handshake)?;
        connection.set_idle_timeout(self.read_timeout)?;
        Ok(connection)
    }
}

impl Thrift1Connector {
    /// A connected socket to the first address of `address` that answers.
    fn open_socket(&self) -> Result<TcpStream, GatewayError> {
        let addrs: Vec<SocketAddr> = self
            .address
            .to_socket_addrs()
            .map_err(|e| {
                GatewayError::Refused(format!(
                    "cannot resolve the HBase Thrift address {:?}: {e}",
                    self.address
                ))
            })?
            .collect();
        let mut last = None;
        for addr in addrs {
            match TcpStream::connect_timeout(&addr, self.connect_timeout) {
                Ok(socket) => {
                    // Small calls (scanner pages, gets) go out at once.
                    let _ = socket.set_nodelay(true);
                    return Ok(socket);
                }
                Err(e) => last = Some(e),
            }
        }
        let why = match last {
            Some(e) => e.to_string(),
            None => "it resolves to no address".to_owned(),
        };
        Err(GatewayError::Transport(
            format!(
                "cannot connect to HBase's Thrift server at {}: {why}",
                self.address
            )
            .into(),
        ))
    }
}
