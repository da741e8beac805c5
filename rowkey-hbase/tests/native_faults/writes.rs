//! Writes as a class while regions move: the conformance suite's random
//! write sequences (`rowkey_fixtures::conformance::write_sequences`: rows
//! that clear and set one column, several rows of one key in a batch,
//! conditional edits in every order, counters and appends), each step
//! followed by a read of the whole table against the model, on tables of
//! two regions that are moved between the servers all the while.

use crate::harness::{client, command, patient};
use rowkey::store::admin::TableSpec;
use rowkey_core::split::SplitKeys;
use rowkey_hbase::HBaseStore;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn write_sequences_while_regions_move() {
    let client = client().await;
    let current: Arc<Mutex<Option<String>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let moves = Arc::new(AtomicUsize::new(0));
    let mover = {
        let (current, stop, moves) = (current.clone(), stop.clone(), moves.clone());
        tokio::spawn(async move {
            // The write sequences' keys sit on both sides of the split.
            let mut side = 0;
            while !stop.load(Ordering::SeqCst) {
                tokio::time::sleep(Duration::from_millis(250)).await;
                let Some(table) = current.lock().unwrap().clone() else {
                    continue;
                };
                let row = ["7700", "77ff"][side % 2];
                side += 1;
                command(&format!("move {table} {row}")).await;
                moves.fetch_add(1, Ordering::SeqCst);
            }
        })
    };
    let next = AtomicUsize::new(0);
    let tables = || {
        let name = format!(
            "w{}_{}",
            std::process::id(),
            next.fetch_add(1, Ordering::SeqCst)
        );
        let (client, current) = (client.clone(), current.clone());
        async move {
            let splits = SplitKeys::new([b"w\x0a".to_vec()]);
            client
                .admin()
                .create_table(&TableSpec::new(&name, &["d"]).splits(&splits))
                .await
                .unwrap();
            *current.lock().unwrap() = Some(name.clone());
            let store: HBaseStore = client.table(&name).with_retry(patient());
            store
        }
    };
    // Sequences until the regions have moved under them a few times: how
    // long one takes depends on the machine, not the moves.
    let mut runs = 0u64;
    while runs == 0 || moves.load(Ordering::SeqCst) < 4 {
        rowkey_fixtures::conformance::write_sequences::check(&tables, 8, 0x5EED + runs).await;
        runs += 1;
        assert!(runs <= 20, "the regions did not move: {moves:?} moves");
    }
    stop.store(true, Ordering::SeqCst);
    mover.await.unwrap();
    let moves = moves.load(Ordering::SeqCst);
    eprintln!("{moves} region moves under {runs} runs of the write sequences");
    assert!(moves >= 4, "{moves} moves");
}
