//! An async client for HBase 2.x that speaks HBase's own RPC to its
//! masters and region servers: no Thrift or REST gateway to deploy, no
//! JVM. It knows tables, rows, cells, scans, filters and table admin; it
//! knows nothing of how keys are made.
//!
//! - [`Client::connect`] finds the cluster through ZooKeeper
//!   (`zk://zk1:2181,zk2:2181/hbase`, what `hbase.zookeeper.quorum` and
//!   `zookeeper.znode.parent` say) or through the masters
//!   (`hbase://m1:16000`, HBase 2.5+'s connection registry).
//! - [`Client::scan`] streams a [`Scan`]'s rows region by region, forward
//!   or reversed, with server-side [`Filter`]s (`FuzzyRowFilter`,
//!   `MultiRowRangeFilter`, `ColumnRangeFilter`), a limit and a cap on
//!   the cells of each family ([`Get`]s take them too); a scanner lost to a moved region,
//!   a dead server, an expired lease or a cut connection is reopened after
//!   the last row delivered, at the server's current read point; every
//!   row is checked against the scan.
//! - [`Client::get`] reads rows by key, one `Multi` of gets per region
//!   server, in the order asked.
//! - [`Client::mutate`] writes [`RowMutation`]s, each row all or nothing,
//!   one `Multi` call per region server, retrying only what failed.
//! - [`Client::check_and_mutate`] applies a row's mutation if one of its
//!   cells is as a [`Check`] says, as one step of the server;
//!   [`Client::read_modify_write`] increments counters or appends bytes
//!   ([`Modify`]), with a nonce: a copy that may have run is sent again
//!   only to the server that may have run it, which does not run a
//!   repeat; anything else that may have run is [`Error::OutcomeUnknown`].
//! - [`Admin`] creates tables pre-split at split keys, disables, deletes,
//!   lists and describes them, and lists a table's [`Region`]s.
//! - With the `kerberos` feature, `Options::kerberos` joins a Kerberized
//!   cluster (SASL GSSAPI over MIT Kerberos) at every
//!   `hbase.rpc.protection` level: authentication, integrity (every frame
//!   signed) and privacy (every frame encrypted), from a `kinit` ticket or
//!   a keytab. [`Client::authentication_token`] gets a delegation
//!   [`Token`] that another process uses alone ([`Options::token`]).
//!
//! ```no_run
//! use futures::TryStreamExt;
//! use hbase_native::{Client, Filter, RowMutation, Scan};
//! # async fn run() -> Result<(), hbase_native::Error> {
//! let client = Client::connect("zk://127.0.0.1:2181").await?;
//! client.admin().create_table("t", &["d"], &[b"m".to_vec()]).await?;
//! client
//!     .mutate("t", vec![
//!         RowMutation::put(b"apple".to_vec()).set(b"d", b"q", b"1"),
//!         RowMutation::put(b"pear".to_vec()).set(b"d", b"q", b"2"),
//!     ])
//!     .await?;
//! // Rows whose second byte is 'p', filtered on the region servers.
//! let scan = Scan::all().filter(Filter::Fuzzy(vec![(b"?p".to_vec(), vec![1, 0])]));
//! let rows: Vec<_> = client.scan("t", scan).try_collect().await?;
//! assert_eq!(rows[0].row, b"apple");
//! # Ok(()) }
//! ```
//!
//! - With the `tls` feature, `Options::tls` speaks TLS to every server
//!   (rustls): verified by a CA and by name, with a client certificate
//!   for mutual TLS.
//!
//! **Not supported yet:** HBase 1.x; read replicas.
//!
//! The wire messages are this crate's own prost definitions of the fields
//! it uses; a test checks each against the `.proto` files of HBase 2.6.1's
//! `hbase-protocol-shaded` jar.

#![doc(html_root_url = "https://docs.rs/hbase-native/0.1.0")]
#![warn(missing_docs)]

mod address;
mod admin;
mod atomic;
mod client;
mod cluster;
mod connection;
mod error;
#[cfg(test)]
mod fake;
mod filter;
mod get;
#[cfg(feature = "kerberos")]
mod kerberos;
mod locate;
mod mutate;
mod nonce;
mod options;
mod outcome;
mod proto;
mod regions;
mod retries;
mod sasl;
mod scan;
mod scanner;
mod servers;
#[cfg(feature = "tls")]
mod tls;
mod token;
mod transport;
mod types;
mod wire;
mod zookeeper;

pub use address::Registry;
pub use admin::Admin;
pub use atomic::{Check, Compare, Modify};
pub use client::{Client, Scanner};
pub use error::{Error, RemoteException, Result};
#[cfg(feature = "kerberos")]
pub use kerberos::{Kerberos, Protection};
pub use options::{AddressMap, CallPolicy, Options};
pub use regions::{Region, TableRegions};
#[cfg(feature = "tls")]
pub use tls::{Tls, TlsRoots};
pub use token::Token;
pub use types::{Cell, Filter, Get, RowMutation, RowResult, Scan};
