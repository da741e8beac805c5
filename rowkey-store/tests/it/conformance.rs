//! The Store conformance suite (`rowkey_fixtures::conformance`) on
//! MemStore: as it is, with HBase's key limit, with reads that are not
//! ready at once (as a network store's are), and boxed in a `DynStore`.

use futures::executor::block_on;
use rowkey::store::{DynStore, KeyLimit, MemStore};
use rowkey_fixtures::conformance::{run, run_with, Config};
use rowkey_fixtures::stores::SlowReads;

#[test]
fn mem_store() {
    // An in-memory store affords many rounds of the randomised checks.
    let config = Config {
        rounds: 64,
        ..Config::default()
    };
    block_on(run_with(|| async { MemStore::new() }, config));
}

#[test]
fn mem_store_with_hbase_key_limit() {
    block_on(run(|| async { MemStore::with_key_limit(KeyLimit::HBASE) }));
}

#[test]
fn mem_store_with_slow_reads() {
    let config = Config {
        rounds: 24,
        seed: 7,
    };
    block_on(run_with(|| async { SlowReads(MemStore::new()) }, config));
}

#[test]
fn boxed_mem_store() {
    block_on(run(|| async { DynStore::new(MemStore::new()) }));
}
