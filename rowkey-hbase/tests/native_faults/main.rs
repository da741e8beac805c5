//! The native transport under faults, on a cluster of its own (a master
//! and three region servers in one JVM, `rowkey_fixtures::hbase::cluster`,
//! one per test binary, so that servers stopped here disturb no other
//! test): regions split, moved and balanced, `hbase:meta` moved, region
//! servers stopped and aborted, connections cut and stalled, writes held
//! past the client's timeout and delivered late, while reads and writes
//! run; every read against brute force (a sorted map of what was
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
mod writes;
