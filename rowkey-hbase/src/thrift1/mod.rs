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

use crate::gateway::{Connector, GatewayError};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

/// Opens Thrift 1 connections to one server.
#[derive(Debug, Clone)]
pub(crate) struct Thrift1Connector {
    /// `host:port`, as given.
    pub(crate) address: String,
    /// The longest a TCP connect may take (also bounded by each call's
    /// idle timeout).
    pub(crate) connect_timeout: Duration,
}

impl Connector for Thrift1Connector {
    type Connection = Thrift1Connection;

    /// A connection whose connect, first call and later calls each wait
    /// at most `timeout` (a server stopped with SIGSTOP still accepts
    /// connections in the kernel, and then answers nothing).
    fn connect(&self, timeout: Duration) -> Result<Thrift1Connection, GatewayError> {
        let socket = self.open_socket(self.connect_timeout.min(timeout))?;
        let mut connection = Thrift1Connection::new(socket, timeout)?;
        connection.handshake(&self.address, timeout)?;
        Ok(connection)
    }
}

impl Thrift1Connector {
    /// A connected socket to the first address of `address` that answers
    /// within `timeout`.
    fn open_socket(&self, timeout: Duration) -> Result<TcpStream, GatewayError> {
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
            match TcpStream::connect_timeout(&addr, timeout.max(Duration::from_millis(1))) {
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
