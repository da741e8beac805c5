//! rowkey-hbase on its native transport (HBase's own RPC, `zk://`),
//! against a real HBase 2.6.1 with a master and three region servers in
//! one JVM (`rowkey_fixtures::hbase::cluster`, one for this binary),
//! tables pre-split over them. Run one module with `cargo test -p
//! rowkey-hbase --test native faults::`.

mod blocking;
mod cluster;
mod conformance;
mod java_checks;
