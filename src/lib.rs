//! Derive correct, fast HBase/Bigtable row keys from plain Rust structs.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey, Debug, PartialEq)]
//! struct Spend<'a> {
//!     #[text(width = 6)]
//!     month: u32, // 202112: enumerable, first
//!     #[pad(width = 10, fill = 0x01, align = left)]
//!     user: &'a str,
//!     #[desc_ts]
//!     at_ms: i64, // newest first
//! }
//!
//! let spend = Spend { month: 202112, user: "zhangsan", at_ms: 1_638_316_800_000 };
//! let key = spend.to_key()?; // a stack buffer: no allocation
//! assert_eq!(&key[..16], b"202112\x01\x01zhangsan");
//! assert_eq!(Spend::FIXED_LEN, Some(24));
//! // Decoding borrows `user` from the key's bytes.
//! assert_eq!(Spend::decode(&key)?, spend);
//! println!("{key}"); // 202112\x01\x01zhangsan\x7F\xFF...: paste into the HBase shell
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Field attributes
//!
//! The table is docs/designing-a-key.md's (tests/it/docs.rs checks they are
//! one text).
//!
#![doc = include_str!("../docs/attributes.md")]
//!
//! `Option<T>` fields get a tag byte (`None` sorts first). On the struct,
//! `#[rowkey(separator = "_")]` joins text fields with a separator,
//! `#[rowkey(max_len = N)]` fails the build if a key could exceed `N`
//! bytes, and `#[rowkey(target = "bigtable")]` (or `"hbase"`) if it could
//! exceed that store's row key limit (4096 or 32767 bytes).
//!
//! The scan builder (`Key::scan()`) names key fields in key order, each a
//! [`scan::Step`]: `Spend::scan().month.eq(202112).user.starts_with("zh")`.
//! With a custom `hash = path::fn` salt, `in_bucket(b)` names the bucket
//! the query's rows are in. See [`scan`].
//!
//! # Records
//!
//! `#[derive(Record)]` maps a whole domain struct to a row
//! ([`store::Record`]): the fields named like its key's fields fill the
//! key, every other field is a cell.
//!
//! | attribute | on | effect |
//! | --- | --- | --- |
//! | `#[record(key = K)]` | struct | the `#[derive(RowKey)]` key; its fields are matched by name (a missing one, or one of another type, fails the build) |
//! | `#[record(family = "d")]` | struct | the family of every cell without its own |
//! | `#[record(phoenix)]`, `#[record(phoenix(column_encoded_bytes = N))]` | struct | an Apache Phoenix table's row: family `0`, Phoenix's bytes and empty column (`docs/phoenix.md`) |
//! | `#[cell(family = "..")]` | field | this cell's family (Bigtable's rules: letters, digits, `_`, `-`, `.`) |
//! | `#[cell(qualifier = "..")]` | field | this cell's qualifier (default: the field's name) |
//! | `#[cell(skip)]` | field | not stored; `Default::default()` when read |
//! | `#[cell(with = C)]` | field | `C`'s codec ([`store::cell::CellCodec`]) |
//! | `#[cell(json)]` | field | the value's JSON (feature `serde`) |
//! | `#[cell(qualifier = 11)]` | field | a Phoenix record's column number, as its catalog gave it |
//! | `#[phoenix(TYPE)]` | field | a Phoenix record's column type, where the Rust type does not say it |
//!
//! Values are stored as HBase's Java `Bytes` writes them
//! ([`store::cell`]); `Option` fields as an absent cell.
//!
//! ```
//! use rowkey::store::{Record, Row};
//! use rowkey::{Record, RowKey};
//!
//! #[derive(RowKey)]
//! struct OpKey { uid: u64, #[desc_ts] at: i64 }
//!
//! #[derive(Record, Debug, PartialEq)]
//! #[record(key = OpKey, family = "d")]
//! struct Op { uid: u64, at: i64, kind: String, note: Option<String> }
//!
//! let op = Op { uid: 7, at: 10, kind: "login".into(), note: None };
//! let row = Row::new(op.key().to_vec()?, op.cells());
//! assert_eq!(row.cells.len(), 1); // no cell for the None
//! assert_eq!(Op::from_row(&row)?, op);
//! # Ok::<(), rowkey::store::BoxError>(())
//! ```
//!
//! # Stores
//!
//! [`store`] has the async [`Store`](store::Store) trait, its typed
//! operations ([`StoreExt`](store::StoreExt)), [`MemStore`](store::MemStore),
//! [`DynStore`](store::DynStore) for a backend chosen at run time, and
//! [`store::blocking`], the same for code that is not async; the
//! `bigtable` feature adds `rowkey::bigtable` (Cloud Bigtable, the
//! `rowkey-bigtable` crate) and the `hbase` feature `rowkey::hbase`
//! (HBase natively, through HBase's own RPC, or through its Thrift 1
//! server: `HBaseStore`, `HBaseAdmin`, the `hbase_native` client and
//! hbase-thrift adapters, the `rowkey-hbase` crate).

// Where rustdoc links this crate's items from other crates' pages when
// its own docs are not built beside them: `cargo doc --no-deps` documents
// the workspace's crates in no set order, and a link to a crate whose
// docs are not there yet would be left as text. .ci/doc-links.sh checks
// the version.
#![doc(html_root_url = "https://docs.rs/rowkey/0.1.0")]
#![warn(missing_docs)]

// Explicit re-exports, one path per item: an item of a module re-exported
// here whole is not re-exported at the root as well.
pub use rowkey_core::{codec, hotspot, key_text, salt, scan, split};
pub use rowkey_core::{
    DecodeError, DecodeErrorKind, DecodeKey, DecodeKeyOwned, DecodePart, EncodeError,
    EncodeErrorKind, FieldCodec, FieldLayout, IndexOf, KeyBuf, KeyDisplay, KeyError, KeyLocation,
    KeyPart, KeyPrefix, KeyReader, KeyWriter, Layout, Order, RowKey, SparseIndexOf, TimeCrate,
    UnrenderableKey, ValueKind, HBASE_MAX_KEY_LEN,
};
pub use rowkey_derive::{CellValue, KeyPart, Record, RowKey};

/// Layouts read by their description alone: the interpreter that reads
/// and writes keys from a [`Layout`] ([`dynamic`](layout::dynamic)), the format rules of
/// each field's codec ([`rules`](layout::rules): widths, orders, which scans it answers,
/// which the derive evaluates too), a layout's [`Fingerprint`](layout::Fingerprint) and
/// what changed between two layouts ([`diff`](layout::diff())) and, with the `json` feature, layouts
/// read back from JSON. [`Layout`] and its parts are at the crate root.
pub mod layout {
    pub use rowkey_core::layout::{
        diff, dynamic, fnv1a_64, rules, Change, Effect, Fingerprint, KeyOutcome, LayoutDiff,
        MovedShare, SampleCount, SampleReport, ShareBasis, Thousands, Verdict, FORMAT_VERSION,
    };
    #[cfg(feature = "json")]
    pub use rowkey_core::layout::{LayoutJsonError, MAX_LAYOUT_JSON_LEN};
}

#[cfg(feature = "json")]
pub mod testing;

/// Stores that hold keyed rows: the `rowkey-store` crate.
pub use rowkey_store as store;

/// What `#[derive(RowKey)]`, `#[derive(KeyPart)]` and `#[derive(Record)]`
/// expand to calls; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use rowkey_core::__private::*;
    /// The record runtime (`rowkey-store`'s).
    pub mod record {
        pub use rowkey_store::__private::*;
    }
}

/// Cloud Bigtable: the `rowkey-bigtable` crate (feature `bigtable`).
#[cfg(feature = "bigtable")]
pub use rowkey_bigtable as bigtable;

/// HBase through its Thrift gateway: the `rowkey-hbase` crate (feature
/// `hbase`).
#[cfg(feature = "hbase")]
pub use rowkey_hbase as hbase;

// The README's examples run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

// So do those of every chapter of the guide in docs/, one item each
// (tests/it/docs.rs fails on a docs/*.md that is not included here;
// docs/attributes.md is, at the top of this file).
#[doc = include_str!("../docs/README.md")]
#[cfg(doctest)]
pub struct GuideIndexDoctests;

#[doc = include_str!("../docs/designing-a-key.md")]
#[cfg(doctest)]
pub struct DesigningAKeyDoctests;

#[doc = include_str!("../docs/spreading-writes.md")]
#[cfg(doctest)]
pub struct SpreadingWritesDoctests;

#[doc = include_str!("../docs/queries-and-plans.md")]
#[cfg(doctest)]
pub struct QueriesAndPlansDoctests;

#[doc = include_str!("../docs/paging.md")]
#[cfg(doctest)]
pub struct PagingDoctests;

#[doc = include_str!("../docs/stores.md")]
#[cfg(doctest)]
pub struct StoresDoctests;

#[doc = include_str!("../docs/records-and-indexes.md")]
#[cfg(doctest)]
pub struct RecordsAndIndexesDoctests;

#[doc = include_str!("../docs/wide-rows.md")]
#[cfg(doctest)]
pub struct WideRowsDoctests;

#[doc = include_str!("../docs/phoenix.md")]
#[cfg(doctest)]
pub struct PhoenixDoctests;

#[doc = include_str!("../docs/changing-a-key.md")]
#[cfg(doctest)]
pub struct ChangingAKeyDoctests;

#[doc = include_str!("../docs/cli.md")]
#[cfg(doctest)]
pub struct CliDoctests;

#[doc = include_str!("../docs/performance.md")]
#[cfg(doctest)]
pub struct PerformanceDoctests;

#[doc = include_str!("../docs/contributing.md")]
#[cfg(doctest)]
pub struct ContributingDoctests;
