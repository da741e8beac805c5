//! Regions split, merged, moved and balanced, and `hbase:meta` moved, while
//! reads and writes run.

use crate::harness::{check_read, client, command, key, requests, table, write, Model};
use rowkey::store::{KeyRange, ReadRequest};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_and_writes_across_splits_merges_moves_and_balancing() {
    const N: u32 = 20_000;
    let client = client().await;
    let (store, mut model) = table(&client, N, &[5_000, 10_000]).await;
    let name = store.table_name().to_owned();
    let script = {
        let name = name.clone();
        tokio::spawn(async move {
            let mut done = Vec::new();
            for line in [
                format!("split {name} {}", hex(&key(2_500))),
                format!("move {name} {}", hex(&key(12_000))),
                format!("split {name} {}", hex(&key(15_000))),
                "move-meta".to_owned(),
                "balance".to_owned(),
                format!("move {name} {}", hex(&key(100))),
                format!("split {name} {}", hex(&key(7_777))),
                format!("merge {name} {}", hex(&key(2_500))),
                format!("merge {name} {}", hex(&key(12_000))),
            ] {
                done.push(format!("{line}: {}", command(&line).await));
            }
            done
        })
    };
    // Reads and writes go on until the script is done, and once more after.
    let mut round = 0u32;
    loop {
        let finished = script.is_finished();
        for (request, what) in requests(N) {
            check_read(&store, &model, request, &format!("round {round}: {what}")).await;
        }
        // New rows between the old ones, and old ones rewritten.
        let fresh: Model = (0..500)
            .map(|i| {
                let mut k = key(i * 40 + round % 40);
                k.push(b'+');
                (k, format!("w{round}").into_bytes())
            })
            .chain((0..200).map(|i| (key(i * 97), format!("r{round}").into_bytes())))
            .collect();
        write(&store, &fresh).await;
        model.extend(fresh);
        round += 1;
        if finished {
            break;
        }
    }
    let done = script.await.unwrap();
    let regions = client.admin().families(&name).await.unwrap();
    assert_eq!(regions, ["d"]);
    check_read(
        &store,
        &model,
        ReadRequest::new([KeyRange::new(Vec::new(), None)]),
        "at the end",
    )
    .await;
    eprintln!("{round} rounds across: {done:#?}");
    assert!(round >= 2, "the reads overlapped the faults");
}
