//! Stores that hold keyed rows: the async [`Store`] trait and what goes
//! with it (from `rowkey-core`), [`MemStore`] (an in-memory sorted map
//! with Bigtable's semantics, the embedded default) and, with the
//! `bigtable` feature, `BigtableStore` (Cloud Bigtable or its emulator,
//! from `rowkey-bigtable`).
//!
//! Callers pass key structs and plans; rows come back with their raw key,
//! which [`Row::key_as`] decodes. For code that is not async,
//! [`crate::blocking`] has the same operations.
//!
//! ```
//! use rowkey::store::{Cell, MemStore, Store};
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Reading {
//!     device: u32,
//!     seq: u32,
//! }
//!
//! # futures::executor::block_on(async {
//! let store = MemStore::new();
//! for seq in 0..10 {
//!     store.put(&Reading { device: 1, seq }, vec![Cell::new("d", "v", [seq as u8])]).await?;
//! }
//! let row = store.get(&Reading { device: 1, seq: 4 }).await?.expect("written");
//! assert_eq!(row.value("d", "v"), Some(&[4u8][..]));
//! // Keyset pages of 4: resume after the last key of the previous page.
//! let plan = Reading::scan().device.eq(1).plan()?;
//! let first = store.page(&plan, None, 4).await?;
//! let second = store.page(&plan, first.next.as_ref(), 4).await?;
//! assert_eq!(second.rows[0].key_as::<Reading>()?, Reading { device: 1, seq: 4 });
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # }).unwrap();
//! ```

mod mem;

pub use mem::MemStore;
pub use rowkey_core::store::*;

#[cfg(feature = "bigtable")]
pub use rowkey_bigtable::BigtableStore;
