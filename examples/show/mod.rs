//! What every layout example prints: the layout, a few keys as the HBase
//! shell shows them, the split keys, and each query's ranges and rows,
//! answered by a `MemStore` loaded with the generated rows.

use crate::layouts::Query;
use rowkey::split::SplitKeys;
use rowkey::store::{Cell, MemStore, Row, Store};
use rowkey::{KeyDisplay, RowKey};

pub fn layout<K: RowKey + std::fmt::Debug, const N: usize>(
    rows: &[K],
    splits: &SplitKeys,
    queries: Vec<Query<K, N>>,
) -> Result<(), Box<dyn std::error::Error>> {
    println!("{}", K::layout().explain());
    println!("keys:");
    for row in rows.iter().take(3) {
        println!("  {}  <- {row:?}", KeyDisplay(&row.to_vec()?));
    }
    println!(
        "split keys ({} regions): {}",
        splits.len() + 1,
        splits.hbase_shell("t", "d")
    );
    let mut store = MemStore::new();
    let loaded: Result<Vec<Row>, _> = rows
        .iter()
        .map(|r| {
            r.to_vec().map(|key| Row {
                key,
                cells: vec![Cell::new("d", "v", "1")],
            })
        })
        .collect();
    store.write_rows(loaded?)?;
    println!("{} rows loaded\n", store.len());
    for q in queries {
        let found = store.query(&q.plan)?;
        let want = rows.iter().filter(|r| (q.keep)(r)).count();
        println!(
            "{}: {} range(s), {} row(s) returned ({want} match{})",
            q.name,
            q.plan.len(),
            found.len(),
            q.plan
                .limit()
                .map_or(String::new(), |l| format!(", limit {l}"))
        );
        for r in q.plan.ranges().take(3) {
            println!("  {}", r.hbase_shell("t"));
        }
        if q.plan.len() > 3 {
            println!("  ... {} more", q.plan.len() - 3);
        }
        for row in found.iter().take(3) {
            println!("    {}", KeyDisplay(&row.key));
        }
    }
    Ok(())
}
