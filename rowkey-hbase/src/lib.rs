//! HBase for [`rowkey`](https://docs.rs/rowkey): a [`Store`](rowkey_store::Store)
//! over HBase, natively (HBase's own RPC, through [`hbase_native`]: give
//! [`HBaseClient::connect`] a `zk://` or `hbase://` address) or through a
//! Thrift 1 server (a `host:port`); its table admin; and adapters between
//! rowkey's types and [hbase-thrift](https://docs.rs/hbase-thrift) 1.2's
//! for code that keeps its own client. `docs/stores.md` says which
//! transport to pick.
//!
//! - [`HBaseStore`]: a table as an async store, with everything
//!   [`StoreExt`](rowkey_store::StoreExt) builds on it (typed `put`/`get`,
//!   `query` of salted plans merged in key order, `read_plan`, keyset
//!   pages, records and index tables, bulk loads). [`HBaseClient`] holds
//!   the pool of connections its tables share; [`blocking`] is the same
//!   without async.
//! - [`HBaseAdmin`]: create a table with its families (or check one that
//!   exists), delete it.
//! - The adapters: [`ToTScan`] (a range as the `TScan` that reads exactly
//!   its rows, and as a [`ReversedTScan`]), [`plan_scans`],
//!   [`plan_scans_reversed`], [`request_scans`], [`row_from_thrift`],
//!   [`rows_from_thrift`], [`to_batch_mutation`], [`to_batch_mutations`].
//!   [`hbase_thrift`](https://docs.rs/hbase-thrift/1.2.0) is re-exported,
//!   for its types at the version they use.
//!
//! ```no_run
//! use futures::TryStreamExt;
//! use rowkey::store::admin::TableSpec;
//! use rowkey::store::{Cell, StoreExt};
//! use rowkey::RowKey;
//! use rowkey_hbase::HBaseClient;
//!
//! #[derive(RowKey)]
//! struct Reading {
//!     #[salt(buckets = 8, binary)]
//!     device: u32,
//!     #[desc_ts]
//!     at_ms: i64,
//! }
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let client = HBaseClient::connect("127.0.0.1:9090").await?;
//! client.admin().create_table_if_missing(&TableSpec::new("readings", &["d"])).await?;
//! let store = client.table("readings");
//! store.put(&Reading { device: 7, at_ms: 1_700_000_000_000 }, vec![Cell::new("d", "v", "21.5")]).await?;
//! // The newest ten of device 7: one bucket, one scanner, ten rows.
//! let plan = Reading::scan().device.eq(7).at_ms.latest(10)?;
//! let rows: Vec<_> = store.query(&plan).try_collect().await?;
//! # Ok(()) }
//! ```
//!
//! # What runs against a real HBase
//!
//! The repository's tests start HBase 2.6.1 in standalone mode and its
//! own Thrift 1 server (`testing/hbase`, a Maven project), and run against
//! them: the whole `Store` conformance suite (writes, range reads, queries
//! of salted plans, pages and cursors, fuzzy plans, column reads, IN-lists,
//! index tables, records, bulk loads, dropped streams), the seed layouts
//! end to end, faults through a TCP proxy that cuts and stalls
//! connections, and checks through HBase's own Java client: its
//! `FuzzyRowFilter` keeps exactly the rows a plan keeps, reversed scans
//! return the forward rows reversed, cells written from Rust read back
//! with `Bytes.toLong`, `toDouble` and the rest, and keys print with
//! `Bytes.toStringBinary` as [`KeyBuf`](rowkey_core::KeyBuf)'s `Display`
//! prints them.
//!
//! The native transport runs against a master and three region servers
//! in one JVM: the whole conformance suite and the seed layouts on tables
//! pre-split over them, regions split, moved and balanced, `hbase:meta`
//! moved, servers stopped and aborted and connections cut mid-scan and
//! mid-batch, and cross-checks through HBase's Java client.
//!
//! What does not: HBase 1.x; secure clusters (SASL, TLS) natively, and
//! secure or HTTP Thrift servers; the Thrift 2 gateway, whose
//! server-side `FuzzyRowFilter`, pre-split `createTable` and scan limits
//! Thrift 1 lacks (the crate keeps what any gateway shares apart from
//! what is Thrift 1's, so it would be one more module).
//!
//! **Defaults that are traps.** Every `TScan` here sets only what it
//! means and leaves every other field `None`: HBase's Thrift handler
//! applies every field that is set, and hbase-thrift's `TScan::default()`
//! sets them all, `timestamp: Some(0)` among them, which limits the scan
//! to cells written at time `[0, 0)`: a scan built with
//! `..Default::default()` returns no cells, and no error. Likewise
//! `Mutation::default()` has `write_to_w_a_l: Some(false)`, which skips
//! the write-ahead log (the mutations here set it to true), and
//! `ColumnDescriptor::default()` names an empty compression, which
//! `createTable` refuses ([`HBaseAdmin`] sets every field).
//!
//! The adapters are functions and a trait rather than `From` impls
//! because Rust's orphan rule allows no `impl From<&ScanRange> for TScan`
//! outside the crates that define one or the other.

// Where rustdoc links this crate's items from other crates' pages when
// its own docs are not built beside them: `cargo doc --no-deps` documents
// the workspace's crates in no set order, and a link to a crate whose
// docs are not there yet would be left as text. .ci/doc-links.sh checks
// the version.
#![doc(html_root_url = "https://docs.rs/rowkey-hbase/0.1.0")]
#![warn(missing_docs)]

mod admin;
pub mod blocking;
mod bounds;
mod client;
mod error;
mod failover;
mod gateway;
mod native;
pub mod phoenix;
mod plan;
mod puts;
mod reversed;
mod rows;
mod scan;
mod store;
mod thrift1;

pub use admin::HBaseAdmin;
pub use client::{ClientOptions, HBaseClient};
pub use failover::{failover_retry, DEFAULT_SESSION_TIMEOUT};
pub use gateway::write::WriteOptions;
pub use store::HBaseStore;

pub use error::ThriftDataError;
pub use plan::{plan_scans, plan_scans_reversed, request_scans, slice_filter_string};
pub use puts::{to_batch_mutation, to_batch_mutations};
pub use reversed::{ReverseStep, ReversedTScan};
pub use rows::{row_from_thrift, rows_from_thrift};
pub use scan::ToTScan;

pub use hbase_native;
pub use hbase_thrift;
