//! What a page and a query cost (issue 41): `Page::cost` and
//! `QueryStream::cost` against a store that counts its own reads
//! (`rowkey_fixtures::stores::CountingReads`): every page's rows read and
//! reads started are exactly what the store saw during that page, over
//! generated plans of up to hundreds of ranges, page sizes, parked walks
//! and fresh pages alike.

use futures::executor::block_on;
use futures::StreamExt;
use proptest::prelude::*;
use rowkey::scan::Cursor;
use rowkey::store::{Cell, MemStore, Row, Store, StoreExt};
use rowkey::RowKey;
use rowkey_fixtures::stores::CountingReads;

#[derive(RowKey)]
struct Trip {
    #[salt(buckets = 12)]
    city: u16,
    driver: u16,
    started: u32,
}

fn store_of(trips: &[(u16, u16, u32)]) -> CountingReads<MemStore> {
    let store = CountingReads::new(MemStore::new());
    let rows: Vec<Row> = trips
        .iter()
        .map(|&(city, driver, started)| {
            let key = Trip {
                city,
                driver,
                started,
            }
            .to_vec()
            .unwrap();
            Row::new(key, vec![Cell::new("d", "v", "x")])
        })
        .collect();
    block_on(store.write_rows(rows)).unwrap();
    store.take();
    store.take_reads();
    store
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn each_page_costs_what_the_store_read_for_it(
        trips in proptest::collection::vec((0u16..3, 0u16..300, 0u32..50), 0..600),
        drivers in 1usize..300,
        size in 1usize..80,
        fresh_every in 0usize..4,
    ) {
        let store = store_of(&trips);
        // One city, `drivers` drivers: an IN-list of up to 300 ranges.
        let plan = Trip::scan()
            .city
            .eq(1)
            .driver
            .is_in(0..drivers as u16)
            .plan()
            .unwrap();
        let mut cursor: Option<Cursor> = None;
        let (mut returned, mut read, mut pages) = (0u64, 0u64, 0usize);
        loop {
            // Now and then a write between pages: the next page reads afresh.
            if fresh_every > 0 && pages % fresh_every == fresh_every - 1 {
                block_on(store.write_rows(vec![Row::new(b"zz".to_vec(), vec![Cell::new("d", "v", "x")])])).unwrap();
                store.take_reads();
            }
            let page = block_on(store.page(&plan, cursor.as_ref(), size)).unwrap();
            pages += 1;
            let (rows_seen, reads_seen) = (store.take(), store.take_reads());
            prop_assert_eq!(page.cost.rows_read, rows_seen, "page {}", pages);
            prop_assert_eq!(page.cost.reads_started, reads_seen, "page {}", pages);
            returned += page.rows.len() as u64;
            read += page.cost.rows_read;
            cursor = page.next;
            if cursor.is_none() {
                break;
            }
        }
        let expected = trips
            .iter()
            .filter(|t| t.0 == 1 && usize::from(t.1) < drivers)
            .map(|t| (t.1, t.2))
            .collect::<std::collections::BTreeSet<_>>()
            .len() as u64;
        prop_assert_eq!(returned, expected);
        prop_assert!(read >= returned);
        // One query of the same plan: its cost is the store's count too.
        let mut query = store.query(&plan);
        let mut n = 0u64;
        while let Some(row) = block_on(query.next()) {
            row.unwrap();
            n += 1;
        }
        prop_assert_eq!(n, expected);
        prop_assert_eq!(query.cost().rows_read, store.take());
        prop_assert_eq!(query.cost().reads_started, store.take_reads());
    }
}
