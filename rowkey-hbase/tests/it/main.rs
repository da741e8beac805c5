//! rowkey-hbase's integration tests, one module per former test file, in
//! one binary. Run one module with `cargo test -p rowkey-hbase --test it
//! scans::`.

mod data;
mod scans;

/// The brute-force model of HBase's Thrift handler both modules check
/// against.
mod common;
