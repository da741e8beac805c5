//! What a page sees of another client's writes: another `HBaseClient`
//! writes and deletes rows of the table between pages, which this
//! client's parked walks and scanners know nothing of. Held to a
//! staleness of zero, every page is the table as it is when asked for;
//! held to 300 ms with 350 ms between pages, too.

use crate::server::{client, fresh_table};
use rowkey_fixtures::conformance::walks::other_writer;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_see_another_client_s_writes_within_the_staleness_set() {
    for (round, (max, wait)) in [
        (Duration::ZERO, Duration::ZERO),
        (Duration::from_millis(300), Duration::from_millis(350)),
    ]
    .into_iter()
    .enumerate()
    {
        let reader = client().await;
        let table = fresh_table(&reader, &["d", "i"]).await;
        let writer = client().await; // a client of its own: its own epoch, its own scanners
        other_writer(
            &reader.table(&table),
            &writer.table(&table),
            max,
            wait,
            round as u64,
        )
        .await;
    }
}
