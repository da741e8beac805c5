//! The native transport under faults, on a cluster of its own (a master
//! and three region servers in one JVM, `rowkey_fixtures::hbase::cluster`,
//! one per test binary, so that servers stopped here disturb no other
//! test): regions split, moved and balanced, `hbase:meta` moved, region
//! servers stopped and aborted, connections cut and stalled, writes held
//! past the client's timeout and delivered late, while reads and writes
//! (and wide rows' cell reads, `wide`) run; every read against brute force (a sorted map of what was
//! written). Run one module with `cargo test -p rowkey-hbase --test
//! native_faults regions::`.

mod failover;
mod harness;
mod late_writes;
mod outcomes;
mod proxy;
mod read_points;
mod regions;
mod servers;
mod wide;
mod writes;

/// The cluster these tests run on: an open one.
pub fn cluster() -> &'static rowkey_fixtures::hbase::HBase {
    rowkey_fixtures::hbase::cluster()
}

/// How the tests' native clients connect: as they do by default.
pub fn native_options() -> rowkey_hbase::hbase_native::Options {
    rowkey_hbase::hbase_native::Options::default()
}
