//! Table guards on BigtableStore against the emulator
//! (`rowkey_fixtures::conformance::guard`): the registry is a table of
//! its own with family `l`; a key of another layout is refused with the
//! diff before a row is read or written, a rename passes.

use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey_fixtures::emulator::Emulator;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guards_on_bigtable() {
    let emu = Emulator::start();
    let admin = BigtableAdmin::connect_emulator(&emu.host, "p", "i").expect("the admin client");
    let next = Arc::new(AtomicUsize::new(0));
    let make = |families: &'static [&'static str]| {
        let (admin, host, next) = (admin.clone(), emu.host.clone(), next.clone());
        move |name: &str| {
            let table = format!("{name}{}", next.fetch_add(1, Ordering::SeqCst));
            let (admin, host) = (admin.clone(), host.clone());
            async move {
                admin
                    .create_table(&TableSpec::new(&table, families))
                    .await
                    .expect("a new table");
                BigtableStore::connect_emulator(&host, "p", "i", &table)
                    .await
                    .expect("a store")
            }
        }
    };
    let tables = make(&["d", "i"]);
    let registries = make(&["l"]);
    rowkey_fixtures::conformance::guard::run(tables, || registries("rowkey_layouts")).await;
}
