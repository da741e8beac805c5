//! Cloud Bigtable for [`rowkey`](https://docs.rs/rowkey): an async,
//! streaming, resumable [`Store`](rowkey_store::Store) over
//! [bigtable_rs](https://docs.rs/bigtable_rs), table admin without the
//! `cbt` binary, adapters for code that keeps its own bigtable_rs client,
//! and a blocking facade.
//!
//! - [`BigtableStore`]: reads are streams; a transient failure (a cut
//!   stream, UNAVAILABLE, DEADLINE_EXCEEDED, a stream silent past the idle
//!   timeout) is retried with backoff, resuming strictly after the last
//!   row delivered ([`RetryPolicy`](rowkey_store::RetryPolicy));
//!   `query` reads a salted plan's buckets concurrently and merges them
//!   in logical key order with bounded memory; writes go out in batches
//!   with bounded requests in flight ([`WriteOptions`]); cells up to
//!   [`MAX_MESSAGE_BYTES`] read back; keys over 4 KiB and empty keys are
//!   refused before anything is sent.
//! - [`BigtableAdmin`]: tables with families and split keys of any bytes,
//!   created if missing ([`BigtableAdmin::create_table_if_missing`]).
//! - [`adapters`]: `ScanRange` → `RowRange`, plans → one `RowSet`,
//!   bigtable_rs rows → [`Row`](rowkey_store::Row).
//! - [`blocking`]: the same store for code that is not async.
//!
//! Everything here is tested against the Cloud Bigtable emulator
//! (`cbtemulator`), with a fault-injecting proxy between client and
//! emulator for the retry tests; nothing is tested against Cloud Bigtable
//! itself, and Cloud authentication (`connect`, `BigtableAdmin::connect`
//! without `BIGTABLE_EMULATOR_HOST`) is not exercised.
//!
//! ```no_run
//! use futures::TryStreamExt;
//! use rowkey::store::{Cell, StoreExt};
//! use rowkey::RowKey;
//! use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
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
//! let admin = BigtableAdmin::connect_emulator("127.0.0.1:8086", "p", "i")?;
//! let splits = Reading::split_keys();
//! admin.create_table(&TableSpec::new("readings", &["d"]).splits(&splits)).await?;
//! let store = BigtableStore::connect_emulator("127.0.0.1:8086", "p", "i", "readings").await?;
//! store.put(&Reading { device: 7, at_ms: 1_700_000_000_000 }, vec![Cell::new("d", "v", "21.5")]).await?;
//! let latest: Vec<_> = store.query(&Reading::scan().device.eq(7).plan()?).try_collect().await?;
//! # Ok(()) }
//! ```

// Where rustdoc links this crate's items from other crates' pages when
// its own docs are not built beside them: `cargo doc --no-deps` documents
// the workspace's crates in no set order, and a link to a crate whose
// docs are not there yet would be left as text. .ci/doc-links.sh checks
// the version.
#![doc(html_root_url = "https://docs.rs/rowkey-bigtable/0.1.0")]
#![warn(missing_docs)]

pub mod adapters;
mod admin;
pub mod blocking;
mod bulk;
mod call;
mod chunks;
mod conditional;
mod mutate;
mod read;
mod rowset;
mod sample;
mod status;
mod store;
mod target;
mod versions;
mod write;

pub use admin::{BigtableAdmin, TableMismatch, TableSpec, TableStatus};
/// The predicate of [`BigtableStore::check_and_mutate_row`]: bigtable_rs's
/// `google.bigtable.v2.RowFilter`.
pub use bigtable_rs::google::bigtable::v2::RowFilter;
pub use mutate::{FailedMutation, MutateRowsError, Mutation, RowMutation};
pub use sample::KeySample;
pub use store::BigtableStore;
pub use target::MAX_MESSAGE_BYTES;
pub use versions::{VersionedCell, VersionedRow, VersionedRowStream};
pub use write::{WriteOptions, MAX_MUTATIONS};
