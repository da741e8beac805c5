//! The wire messages: this crate's own definitions of the fields it uses
//! of HBase 2.6's `.proto` files (package `hbase.pb`, proto2), as prost
//! derives. A message here is a subset of HBase's message of the same
//! name; a field here has HBase's name, number, type and label, which
//! `tests/proto_fields.rs` checks against the `.proto` files in the
//! `hbase-protocol-shaded` 2.6.1 jar. Nested messages and enums live in
//! a module named after their parent, as prost names them.

// Fields are HBase's, kept whole where a message is used at all, and a
// few messages are only read by tests: not every one is used here.
#![allow(dead_code)]
// Variant names are HBase's (`DELETE_ONE_VERSION`, ...), kept as they are.
#![allow(clippy::enum_variant_names)]

mod auth;
mod client;
mod filter;
mod hbase;
mod master;
mod rpc;
mod zookeeper;

pub use auth::*;
pub use client::*;
pub use filter::*;
pub use hbase::*;
pub use master::*;
pub use rpc::*;
pub use zookeeper::*;
