//! rowkey-hbase's integration tests, one module per former test file, in
//! one binary. Run one module with `cargo test -p rowkey-hbase --test it
//! scans::`.

mod admin;
mod blocking;
mod conformance;
mod data;
mod edges;
mod faults;
mod gateway_faults;
mod guard;
mod java_checks;
mod lease;
mod other_writers;
mod parked;
mod scans;
mod server;

/// The brute-force model of HBase's Thrift handler both modules check
/// against.
mod common;
