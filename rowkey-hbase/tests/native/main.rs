//! rowkey-hbase on its native transport (HBase's own RPC, `zk://`),
//! against a real HBase 2.6.1 with a master and three region servers in
//! one JVM (`rowkey_fixtures::hbase::cluster`, one for this binary),
//! tables pre-split over them. Run one module with `cargo test -p
//! rowkey-hbase --test native faults::`.

mod blocking;
mod cluster;
mod conformance;
mod java_checks;

/// The cluster these tests run on: an open one (`native_kerberos` runs
/// the same tests on a Kerberized one).
pub fn cluster() -> &'static rowkey_fixtures::hbase::HBase {
    rowkey_fixtures::hbase::cluster()
}

/// How the tests' native clients connect: as they do by default.
pub fn native_options() -> rowkey_hbase::hbase_native::Options {
    rowkey_hbase::hbase_native::Options::default()
}
