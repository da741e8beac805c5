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

/// What happens while a scan is held: rows written (keys `from..to`, every
/// other one rewritten and the same rows with `+` added), or a command.
enum Step {
    Write(u32, u32),
    Command(String),
}

/// A scan of `key(4_000)..key(9_000)` over a table split at `key(5_000)`,
/// held after 300 rows (in the first region) while `steps` run, then read
/// to its end: every row, the new ones and the new values included.
async fn held_scan_reads_everything(steps: impl Fn(&str) -> Vec<Step>) {
    use futures::TryStreamExt;
    use rowkey::store::Store;
    let client = client().await;
    let (store, mut model) = table(&client, 10_000, &[5_000]).await;
    let name = store.table_name().to_owned();
    let request = ReadRequest::new([KeyRange::new(key(4_000), Some(key(9_000)))]);
    let mut rows = store
        .clone()
        .with_read_page_rows(97)
        .read_rows(request.clone());
    let mut got = Vec::new();
    while got.len() < 300 {
        let row = rows.try_next().await.unwrap().expect("a row");
        got.push((row.key.clone(), row.value("d", "v").map(<[u8]>::to_vec)));
    }
    let mut done = Vec::new();
    for step in steps(&name) {
        match step {
            Step::Write(from, to) => {
                for round in 0..5 {
                    let fresh: Model = (from..to)
                        .step_by(2)
                        .map(|i| {
                            let mut k = key(i);
                            if round == 4 {
                                k.push(b'+');
                            }
                            (k, format!("n{round}").into_bytes())
                        })
                        .collect();
                    write(&store, &fresh).await;
                    model.extend(fresh);
                }
            }
            Step::Command(line) => done.push(command(&line).await),
        }
    }
    while let Some(row) = rows.try_next().await.unwrap() {
        got.push((row.key.clone(), row.value("d", "v").map(<[u8]>::to_vec)));
    }
    let want: Vec<(Vec<u8>, Option<Vec<u8>>)> = model
        .iter()
        .filter(|(k, _)| request.contains(k))
        .map(|(k, v)| (k.clone(), Some(v.clone())))
        .collect();
    let first_wrong = got.iter().zip(&want).position(|(g, w)| g != w);
    assert!(
        first_wrong.is_none() && got.len() == want.len(),
        "after {done:?}: {} rows read, {} wanted; first wrong: {:?}",
        got.len(),
        want.len(),
        first_wrong.map(|i| (
            String::from_utf8_lossy(&got[i].0).into_owned(),
            String::from_utf8_lossy(&want[i].0).into_owned()
        ))
    );
}

/// A scan held in one region while the region after it takes writes, then
/// the two merged: the scan goes on in the merged region and reads every
/// row, the new ones and the new values included. (A read point is one
/// region's own: reopened in the merged region with the first region's
/// read point, the scan hid every row the second had written since, and
/// `reads_and_writes_across_splits_merges_moves_and_balancing` lost 85 rows
/// of 18,300 once in CI.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scan_held_across_a_merge_reads_what_the_other_half_wrote() {
    held_scan_reads_everything(|name| {
        vec![
            Step::Write(5_000, 9_000),
            Step::Command(format!("merge {name} {}", hex(&key(0)))),
        ]
    })
    .await;
}

/// The same across a split of the region the scan stands in, ahead of it:
/// both daughters take writes after the split (sequence ids past the
/// parent's), and the scan, reopened in a daughter, reads them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scan_held_across_a_split_reads_what_the_daughters_wrote() {
    held_scan_reads_everything(|name| {
        vec![
            Step::Command(format!("split {name} {}", hex(&key(4_800)))),
            Step::Write(4_700, 5_000),
        ]
    })
    .await;
}
