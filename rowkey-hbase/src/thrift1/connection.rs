//! [`Thrift1Connection`]: one socket to HBase's Thrift 1 server and
//! hbase-thrift's client over it.

use super::errors::{from_thrift_within, is_timeout};
use crate::bounds::tscan;
use crate::gateway::{Connection, GatewayError, ScannerId, ServerScan};
use crate::puts::mutation_of;
use crate::puts::{column, mutations_of};
use crate::rows::rows_from_thrift;
use hbase_thrift::hbase::{
    BatchMutation, ColumnDescriptor, HbaseSyncClient, Mutation, TAppend, THbaseSyncClient,
};
use rowkey_store::{Cell, Columns, Row};
use std::collections::BTreeMap;
use std::io::ErrorKind;
use std::net::TcpStream;
use std::time::Duration;
use thrift::protocol::{TBinaryInputProtocol, TBinaryOutputProtocol};
use thrift::transport::{TBufferedReadTransport, TBufferedWriteTransport};
use thrift::{ApplicationErrorKind, Error};

type Client = HbaseSyncClient<
    TBinaryInputProtocol<TBufferedReadTransport<TcpStream>>,
    TBinaryOutputProtocol<TBufferedWriteTransport<TcpStream>>,
>;

/// A connection to HBase's Thrift 1 server.
pub(crate) struct Thrift1Connection {
    client: Client,
    /// The socket's read and write timeout now.
    timeout: Duration,
    /// The socket itself, to look at it between calls and set its timeouts.
    socket: TcpStream,
}

fn no_attributes() -> BTreeMap<Vec<u8>, Vec<u8>> {
    BTreeMap::new()
}

impl Thrift1Connection {
    /// Its calls' errors, a timeout saying how long was waited.
    fn errors(&self) -> impl Fn(Error) -> GatewayError {
        let timeout = self.timeout;
        move |e| from_thrift_within(e, Some(timeout))
    }

    /// hbase-thrift's client over `socket`; reads time out after `timeout`.
    pub(crate) fn new(socket: TcpStream, timeout: Duration) -> Result<Self, GatewayError> {
        let io = |e: std::io::Error| GatewayError::Transport(Box::new(e));
        socket.set_read_timeout(Some(timeout)).map_err(io)?;
        socket.set_write_timeout(Some(timeout)).map_err(io)?;
        let read = socket.try_clone().map_err(io)?;
        let write = socket.try_clone().map_err(io)?;
        let client = HbaseSyncClient::new(
            TBinaryInputProtocol::new(TBufferedReadTransport::new(read), true),
            TBinaryOutputProtocol::new(TBufferedWriteTransport::new(write), true),
        );
        Ok(Thrift1Connection {
            client,
            socket,
            timeout,
        })
    }

    /// The first call on a new connection, which tells a Thrift 1 server
    /// from any other: a server of another transport (framed), protocol
    /// (compact) or service (Thrift 2) closes the connection, answers in
    /// words the binary protocol cannot read, or does not know the call.
    pub(crate) fn handshake(
        &mut self,
        address: &str,
        timeout: Duration,
    ) -> Result<(), GatewayError> {
        const EXPECTED: &str =
            "expected HBase's Thrift 1 server (org.apache.hadoop.hbase.thrift.ThriftServer, \
             service Hbase) with the buffered transport and the binary protocol, its default; \
             a server started with -f/--framed, -c/--compact, -hsha, -nonblocking or \
             -threadedselector, or HBase's Thrift 2 server, does not answer so";
        match self.client.get_table_names() {
            Ok(_) => Ok(()),
            Err(Error::Application(a)) if a.kind == ApplicationErrorKind::UnknownMethod => {
                Err(GatewayError::WrongServer(format!(
                    "the server at {address} does not know Thrift 1's getTableNames ({}): {EXPECTED}",
                    a.message
                )))
            }
            // A silent server (stopped, stalled, or one that waits for
            // a framed or compact client to speak first): transient.
            Err(Error::Transport(t)) if is_timeout(&t) => Err(GatewayError::Transport(
                format!(
                    "the server at {address} accepted a connection but sent no answer within \
                     {} s (the retry policy's idle timeout) to a first call: it is stopped, \
                     overloaded or not HBase's Thrift 1 server ({EXPECTED})",
                    timeout.as_secs_f32()
                )
                .into(),
            )),
            // A cut and a framed or compact server closing the socket
            // look alike: transient (retried), with what was expected.
            Err(Error::Transport(t)) => Err(GatewayError::Transport(
                format!(
                    "the server at {address} closed the connection on the first call ({t}): {EXPECTED}"
                )
                .into(),
            )),
            Err(Error::Protocol(p)) => Err(GatewayError::WrongServer(format!(
                "the server at {address} answered in a form the binary protocol cannot read ({p}): {EXPECTED}"
            ))),
            Err(e) => Err(from_thrift_within(e, Some(timeout))),
        }
    }

    /// Creates `table` with `families`, each keeping one version, no
    /// compression, no bloom filter, no time to live: every field set by
    /// hand, as hbase-thrift's `ColumnDescriptor::default()` sets an empty
    /// compression name that HBase refuses.
    pub(crate) fn create_table(
        &mut self,
        table: &str,
        families: &[&str],
    ) -> Result<(), GatewayError> {
        let families = families
            .iter()
            .map(|f| ColumnDescriptor {
                name: Some(format!("{f}:").into_bytes()),
                max_versions: Some(1),
                compression: Some("NONE".to_owned()),
                in_memory: Some(false),
                bloom_filter_type: Some("NONE".to_owned()),
                bloom_filter_vector_size: Some(0),
                bloom_filter_nb_hashes: Some(0),
                block_cache_enabled: Some(true),
                time_to_live: Some(-1),
            })
            .collect();
        self.client
            .create_table(table.as_bytes().to_vec(), families)
            .map_err(self.errors())
    }

    /// The names of the tables.
    pub(crate) fn table_names(&mut self) -> Result<Vec<String>, GatewayError> {
        let names = self.client.get_table_names().map_err(self.errors())?;
        Ok(names
            .into_iter()
            .map(|n| String::from_utf8_lossy(&n).into_owned())
            .collect())
    }

    /// Disables (if enabled) and deletes `table`.
    pub(crate) fn delete_table(&mut self, table: &str) -> Result<(), GatewayError> {
        let name = table.as_bytes().to_vec();
        if self
            .client
            .is_table_enabled(name.clone())
            .map_err(self.errors())?
        {
            self.client
                .disable_table(name.clone())
                .map_err(self.errors())?;
        }
        self.client.delete_table(name).map_err(self.errors())
    }
}

impl Connection for Thrift1Connection {
    fn open_scanner(&mut self, table: &str, scan: &ServerScan) -> Result<ScannerId, GatewayError> {
        let mut t = tscan(
            Some(scan.start_row.clone()),
            scan.stop_row.clone(),
            scan.reversed.then_some(true),
        );
        t.caching = Some(i32::try_from(scan.caching).unwrap_or(i32::MAX));
        let slice = scan.cells.as_ref();
        t.columns = scan.columns.as_ref().map(|columns| {
            columns
                .iter()
                .filter(|(f, q)| slice.is_none_or(|s| s.contains(f, q)))
                .map(|(family, qualifier)| column(family, qualifier))
                .collect()
        });
        if let Some(slice) = slice {
            // The family alone (no `:`): the handler reads all of it.
            t.columns
                .get_or_insert_with(|| vec![slice.family_name().as_bytes().to_vec()]);
            t.filter_string = crate::plan::slice_filter_string(slice);
        }
        self.client
            .scanner_open_with_scan(table.as_bytes().to_vec(), t, no_attributes())
            .map_err(self.errors())
    }

    fn next_rows(&mut self, scanner: ScannerId, n: u32) -> Result<Vec<Row>, GatewayError> {
        let n = i32::try_from(n).unwrap_or(i32::MAX);
        let results = self
            .client
            .scanner_get_list(scanner, n)
            .map_err(self.errors())?;
        rows_from_thrift(results).map_err(GatewayError::Store)
    }

    fn close_scanner(&mut self, scanner: ScannerId) -> Result<(), GatewayError> {
        self.client.scanner_close(scanner).map_err(self.errors())
    }

    fn get_rows(
        &mut self,
        table: &str,
        keys: &[Vec<u8>],
        columns: Option<&Columns>,
    ) -> Result<Vec<Row>, GatewayError> {
        let table = table.as_bytes().to_vec();
        // `getRows`/`getRowsWithColumns`: one `Table.get(List<Get>)` on the
        // server, rows without a cell left out of the answer.
        let results = match columns {
            Some(columns) => {
                let columns = columns.iter().map(|(f, q)| column(f, q)).collect();
                self.client
                    .get_rows_with_columns(table, keys.to_vec(), columns, no_attributes())
            }
            None => self.client.get_rows(table, keys.to_vec(), no_attributes()),
        }
        .map_err(self.errors())?;
        rows_from_thrift(results).map_err(GatewayError::Store)
    }

    fn put_rows(&mut self, table: &str, rows: &[Row], stamp: i64) -> Result<(), GatewayError> {
        let batches = rows
            .iter()
            .map(|row| BatchMutation {
                row: Some(row.key.clone()),
                mutations: Some(mutations_of(row)),
            })
            .collect();
        self.client
            // `mutateRowsTs`: the puts at `stamp`, a clear (a column
            // delete) of every version at or before it.
            .mutate_rows_ts(table.as_bytes().to_vec(), batches, stamp, no_attributes())
            .map_err(self.errors())
    }

    fn delete_rows(
        &mut self,
        table: &str,
        keys: &[Vec<u8>],
        families: &[String],
        stamp: i64,
    ) -> Result<(), GatewayError> {
        // A column without ':' deletes the whole family (the handler's
        // `Delete.addFamily(family, stamp)`): every cell of the row at or
        // before `stamp`, one call for all.
        let deletes: Vec<Mutation> = families
            .iter()
            .map(|family| Mutation {
                is_delete: Some(true),
                column: Some(family.as_bytes().to_vec()),
                value: None,
                write_to_w_a_l: Some(true),
            })
            .collect();
        let batches = keys
            .iter()
            .map(|key| BatchMutation {
                row: Some(key.clone()),
                mutations: Some(deletes.clone()),
            })
            .collect();
        self.client
            .mutate_rows_ts(table.as_bytes().to_vec(), batches, stamp, no_attributes())
            .map_err(self.errors())
    }

    fn families(&mut self, table: &str) -> Result<Vec<String>, GatewayError> {
        let descriptors = self
            .client
            .get_column_descriptors(table.as_bytes().to_vec())
            .map_err(self.errors())?;
        Ok(descriptors
            .into_keys()
            .map(|name| {
                let name = name.strip_suffix(b":").unwrap_or(&name);
                String::from_utf8_lossy(name).into_owned()
            })
            .collect())
    }

    fn check_and_put(
        &mut self,
        table: &str,
        key: &[u8],
        (family, qualifier): (&str, &[u8]),
        expected: &[u8],
        put: &Cell,
    ) -> Result<bool, GatewayError> {
        // `checkAndPut`: hbase-thrift always sends the expected value, so
        // HBase checks "equal", and takes an empty value as "absent or
        // empty"; the put is made at the server's time.
        self.client
            .check_and_put(
                table.as_bytes().to_vec(),
                key.to_vec(),
                column(family, qualifier),
                expected.to_vec(),
                mutation_of(put),
                no_attributes(),
            )
            .map_err(self.errors())
    }

    fn increment(
        &mut self,
        table: &str,
        key: &[u8],
        (family, qualifier): (&str, &[u8]),
        by: i64,
    ) -> Result<i64, GatewayError> {
        // `atomicIncrement`, which returns the new count (`increment`
        // returns nothing).
        self.client
            .atomic_increment(
                table.as_bytes().to_vec(),
                key.to_vec(),
                column(family, qualifier),
                by,
            )
            .map_err(self.errors())
    }

    fn append(
        &mut self,
        table: &str,
        key: &[u8],
        cells: &[Cell],
    ) -> Result<Vec<Vec<u8>>, GatewayError> {
        let append = TAppend::new(
            table.as_bytes().to_vec(),
            key.to_vec(),
            cells
                .iter()
                .map(|c| column(&c.family, &c.qualifier))
                .collect::<Vec<_>>(),
            cells.iter().map(|c| c.value.clone()).collect::<Vec<_>>(),
        );
        let answer = self.client.append(append).map_err(self.errors())?;
        // The new cells come back as HBase sorts a row's cells (family,
        // then qualifier), without their columns.
        let mut order: Vec<usize> = (0..cells.len()).collect();
        order.sort_by(|&a, &b| {
            let key = |c: &Cell| (c.family.as_bytes().to_vec(), c.qualifier.clone());
            key(&cells[a]).cmp(&key(&cells[b]))
        });
        if answer.len() != cells.len() {
            return Err(GatewayError::Inconsistent(format!(
                "HBase's Thrift server answered an append of {} cells with {}",
                cells.len(),
                answer.len()
            )));
        }
        let mut values = vec![Vec::new(); cells.len()];
        for (at, cell) in order.into_iter().zip(answer) {
            values[at] = cell.value.unwrap_or_default();
        }
        Ok(values)
    }

    fn set_idle_timeout(&mut self, timeout: Duration) -> Result<(), GatewayError> {
        // A zero timeout means none to the socket: a stall would hang.
        let timeout = timeout.max(Duration::from_millis(1));
        if timeout != self.timeout {
            let io = |e: std::io::Error| GatewayError::Transport(Box::new(e));
            self.socket.set_read_timeout(Some(timeout)).map_err(io)?;
            self.socket.set_write_timeout(Some(timeout)).map_err(io)?;
            self.timeout = timeout;
        }
        Ok(())
    }

    fn is_open(&self) -> bool {
        // A peek that would block: open and quiet. End of file or an
        // error: the server closed it. Bytes waiting: out of step.
        if self.socket.set_nonblocking(true).is_err() {
            return false;
        }
        let mut byte = [0u8; 1];
        let open =
            matches!(self.socket.peek(&mut byte), Err(e) if e.kind() == ErrorKind::WouldBlock);
        open && self.socket.set_nonblocking(false).is_ok()
    }
}
