//! Table guards on MemStore (`rowkey_fixtures::conformance::guard`): a
//! key of another layout refused with the diff, a rename passing, index
//! tables guarded.

#[test]
fn guards_on_memstore() {
    futures::executor::block_on(rowkey_fixtures::conformance::guard::run(
        |_| async { rowkey::store::MemStore::new() },
        || async { rowkey::store::MemStore::new() },
    ));
}
