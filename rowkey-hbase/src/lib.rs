//! Adapters between [`rowkey`](https://docs.rs/rowkey)'s types and
//! [hbase-thrift](https://docs.rs/hbase-thrift) 1.2 (HBase's Thrift1
//! API), for code that keeps its own hbase-thrift client:
//!
//! - [`ToTScan`]: a `ScanRange` or `KeyRange` as the `TScan` for
//!   `scannerOpenWithScan` that reads exactly its rows, and as a
//!   [`ReversedTScan`] for reading them backwards.
//! - [`plan_scans`], [`plan_scans_reversed`], [`request_scans`]: a plan's
//!   (or a read request's) ranges, one scan each.
//! - [`row_from_thrift`], [`rows_from_thrift`]: `TRowResult`s as
//!   [`Row`](rowkey_store::Row)s.
//! - [`to_batch_mutation`], [`to_batch_mutations`]: rows as
//!   `BatchMutation`s for `mutateRows`.
//!
//! They are functions and a trait rather than `From` impls because Rust's
//! orphan rule allows no `impl From<&ScanRange> for TScan` outside the
//! crates that define one or the other.
//! [`hbase_thrift`](https://docs.rs/hbase-thrift/1.2.0) is re-exported,
//! for its types at the version these adapters use.
//!
//! Every `TScan` here sets only what it means (rows and direction) and
//! leaves every other field `None`: HBase's Thrift handler applies every
//! field that is set, and hbase-thrift's `TScan::default()` sets them all,
//! `timestamp: Some(0)` among them, which limits the scan to cells written
//! at time `[0, 0)`: a scan built with `..Default::default()` returns no
//! cells. Likewise `Mutation::default()` has `write_to_w_a_l: Some(false)`,
//! which skips the write-ahead log; the mutations here set it to true.
//!
//! # What is tested, and what is not
//!
//! No HBase server can run on the machines this crate is built on, so
//! nothing here has been run against HBase. The conversions are tested
//! byte for byte against what the Thrift structs carry: the start and stop
//! rows of ranges with `0x00` and `0xFF` bytes, every field left `None`,
//! the bytes hbase-thrift's binary protocol writes for a scan and a
//! mutation and reads back for a row, and (by property tests) a
//! brute-force model of HBase's scan semantics, taken from HBase's
//! `Scan` and Thrift handler source, run over sorted keys: each plan's
//! scans select exactly the keys its ranges hold, forwards and (with the
//! steps) backwards.
//!
//! Not tested: a real HBase Thrift server or scanner; the Thrift
//! transport and HBase's answers on the wire; reversed scans on a server
//! (the model is HBase's documented semantics, start row inclusive and
//! stop row exclusive, and the steps are checked to give the same rows
//! under the other three readings too); the HBase 1.x and 2.x handlers'
//! differences beyond those in the model; server-side errors (a family
//! the table lacks, a key HBase's region lookup cannot take).
//!
//! ```
//! use rowkey::store::{Cell, Row};
//! use rowkey::RowKey;
//! use rowkey_hbase::{plan_scans, row_from_thrift, to_batch_mutation};
//!
//! #[derive(RowKey)]
//! struct Reading {
//!     #[salt(buckets = 8, binary)]
//!     device: u32,
//!     #[desc_ts]
//!     at_ms: i64,
//! }
//!
//! // A write: `client.mutate_rows(b"readings".to_vec(), vec![batch], BTreeMap::new())`.
//! let key = Reading { device: 7, at_ms: 1_700_000_000_000 }.to_vec()?;
//! let batch = to_batch_mutation(Row::new(key, vec![Cell::new("d", "v", "21.5")]))?;
//!
//! // A read: one scanner per scan, `client.scanner_open_with_scan(table, scan, attrs)`,
//! // then `scanner_get_list(id, n)` until it returns no rows, each result
//! // through `row_from_thrift`.
//! let scans = plan_scans(&Reading::scan().device.eq(7).plan()?);
//! assert_eq!(scans.len(), 1);
//! assert_eq!(scans[0].timestamp, None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// Where rustdoc links this crate's items from other crates' pages when
// its own docs are not built beside them: `cargo doc --no-deps` documents
// the workspace's crates in no set order, and a link to a crate whose
// docs are not there yet would be left as text. .ci/doc-links.sh checks
// the version.
#![doc(html_root_url = "https://docs.rs/rowkey-hbase/0.1.0")]
#![warn(missing_docs)]

mod bounds;
mod error;
mod plan;
mod puts;
mod reversed;
mod rows;
mod scan;

pub use error::ThriftDataError;
pub use plan::{plan_scans, plan_scans_reversed, request_scans};
pub use puts::{to_batch_mutation, to_batch_mutations};
pub use reversed::{ReverseStep, ReversedTScan};
pub use rows::{row_from_thrift, rows_from_thrift};
pub use scan::ToTScan;

pub use hbase_thrift;
