//! `Store::query` against a brute-force filter when the store's streams
//! are not ready at once, as a network store's are: a wrapper around
//! `MemStore` answers `Pending` before every row. Limits, budgets smaller
//! than a page, salted and reversed plans, and keyset pages.

use futures::TryStreamExt;
use proptest::prelude::*;
use rowkey::store::{
    Cell, KeyLimit, MemStore, QueryOptions, ReadRequest, Row, RowStream, Store, StoreError,
    StoreExt,
};
use rowkey::RowKey;

/// A `MemStore` whose reads wait once before every row.
#[derive(Clone, Default)]
struct Slow(MemStore);

impl Store for Slow {
    fn key_limit(&self) -> KeyLimit {
        self.0.key_limit()
    }
    fn write_rows(
        &self,
        rows: Vec<Row>,
    ) -> impl std::future::Future<Output = Result<(), StoreError>> + Send {
        self.0.write_rows(rows)
    }
    fn delete_rows(
        &self,
        keys: Vec<Vec<u8>>,
    ) -> impl std::future::Future<Output = Result<(), StoreError>> + Send {
        self.0.delete_rows(keys)
    }
    fn read_rows(&self, request: ReadRequest) -> RowStream {
        rowkey_fixtures::stores::slow_rows(self.0.read_rows(request))
    }
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Plain {
    user: u8,
    seq: u16,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Salted {
    #[salt(buckets = 4, binary)]
    user: u8,
    seq: u16,
}

async fn load<K: RowKey>(store: &Slow, keys: &[K]) {
    let rows = keys
        .iter()
        .map(|k| Row::new(k.to_vec().unwrap(), vec![Cell::new("d", "v", "x")]))
        .collect();
    store.write_rows(rows).await.unwrap();
}

/// The keys a plan must return: logical order, reversed if it is, cut.
fn want(mut keys: Vec<Vec<u8>>, skip: usize, reversed: bool, limit: Option<usize>) -> Vec<Vec<u8>> {
    keys.sort_by(|a, b| a[skip..].cmp(&b[skip..]));
    if reversed {
        keys.reverse();
    }
    keys.truncate(limit.unwrap_or(usize::MAX));
    keys
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every limit, page size and budget, forward and reversed, salted and
    /// not: the rows are the brute force's.
    #[test]
    fn slow_streams_give_exactly_the_rows(
        rows in 1u16..60,
        limit in proptest::option::of(1usize..80),
        page in 1usize..12,
        budget in 0usize..40,
        concurrency in 1usize..4,
        reversed: bool,
        salted: bool,
    ) {
        futures::executor::block_on(async {
            let store = Slow::default();
            let options = QueryOptions::default().page_rows(page).buffer_rows(budget).concurrency(concurrency);
            let (got, expected) = if salted {
                let keys: Vec<Salted> = (0..rows).map(|seq| Salted { user: (seq % 3) as u8, seq }).collect();
                load(&store, &keys).await;
                let mut plan = Salted::scan().plan().unwrap();
                if reversed { plan = plan.reversed(); }
                if let Some(l) = limit { plan = plan.with_limit(l); }
                let got: Vec<Vec<u8>> = store.query_with(&plan, options).map_ok(|r| r.key).try_collect().await.unwrap();
                let all = keys.iter().map(|k| k.to_vec().unwrap()).collect();
                (got, want(all, plan.prefix_len(), reversed, limit))
            } else {
                let keys: Vec<Plain> = (0..rows).map(|seq| Plain { user: 1, seq }).collect();
                load(&store, &keys).await;
                let mut plan = Plain::scan().user.eq(1).plan().unwrap();
                if reversed { plan = plan.reversed(); }
                if let Some(l) = limit { plan = plan.with_limit(l); }
                let got: Vec<Vec<u8>> = store.query_with(&plan, options).map_ok(|r| r.key).try_collect().await.unwrap();
                let all = keys.iter().map(|k| k.to_vec().unwrap()).collect();
                (got, want(all, 0, reversed, limit))
            };
            prop_assert_eq!(got, expected);
            Ok(())
        })?;
    }
}

/// The review's case: 30 rows, a limit of 20, pages of 10: 20 rows, not 10.
#[test]
fn a_limit_larger_than_a_page_is_not_cut_at_the_page() {
    futures::executor::block_on(async {
        let store = Slow::default();
        let keys: Vec<Plain> = (0..30).map(|seq| Plain { user: 1, seq }).collect();
        load(&store, &keys).await;
        let plan = Plain::scan().user.eq(1).plan().unwrap().with_limit(20);
        let options = QueryOptions::default().page_rows(10).buffer_rows(10);
        let got: Vec<Row> = store
            .query_with(&plan, options)
            .try_collect()
            .await
            .unwrap();
        assert_eq!(got.len(), 20);
        // Keyset pages of 7 through the slow store: all 30, once each.
        let plan = Plain::scan().user.eq(1).plan().unwrap();
        let (mut resume, mut seen) = (None::<rowkey::scan::Cursor>, 0);
        loop {
            let page = store.page(&plan, resume.as_ref(), 7).await.unwrap();
            seen += page.rows.len();
            match page.next {
                Some(next) => resume = Some(next),
                None => break,
            }
        }
        assert_eq!(seen, 30);
    });
}

/// A plan's limit caps the rows of all its pages together: 30 rows, a
/// limit of 17, pages of 7: 7 + 7 + 3, then no cursor. Forwards and
/// reversed, and through a cursor that went through bytes (a service).
#[test]
fn a_limit_caps_the_rows_of_all_pages_together() {
    futures::executor::block_on(async {
        let store = Slow::default();
        let keys: Vec<Plain> = (0..30).map(|seq| Plain { user: 1, seq }).collect();
        load(&store, &keys).await;
        for reversed in [false, true] {
            let mut plan = Plain::scan().user.eq(1).plan().unwrap().with_limit(17);
            if reversed {
                plan = plan.reversed();
            }
            let (mut resume, mut sizes, mut seqs) =
                (None::<rowkey::scan::Cursor>, Vec::new(), Vec::new());
            loop {
                let page = store.page(&plan, resume.as_ref(), 7).await.unwrap();
                sizes.push(page.rows.len());
                seqs.extend(page.rows.iter().map(|r| r.key_as::<Plain>().unwrap().seq));
                match page.next {
                    Some(next) => {
                        resume = Some(rowkey::scan::Cursor::from_bytes(&next.to_bytes()).unwrap())
                    }
                    None => break,
                }
            }
            assert_eq!(sizes, [7, 7, 3], "reversed: {reversed}");
            let want: Vec<u16> = if reversed {
                (13..30).rev().collect()
            } else {
                (0..17).collect()
            };
            assert_eq!(seqs, want);
        }
        // No page gives a cursor whose count reaches the limit: one is
        // refused, not read as an empty page or another page.
        let plan = Plain::scan().user.eq(1).plan().unwrap().with_limit(5);
        let key = Plain { user: 1, seq: 4 }.to_vec().unwrap();
        let done = rowkey::scan::Cursor::new(&plan, key, 5);
        let e = store.page(&plan, Some(&done), 7).await.unwrap_err();
        assert!(
            matches!(
                e,
                rowkey::store::StoreError::InvalidCursor(
                    rowkey::scan::InvalidCursor::ImpossibleCount {
                        delivered: 5,
                        limit: Some(5)
                    }
                )
            ),
            "{e}"
        );
    });
}
