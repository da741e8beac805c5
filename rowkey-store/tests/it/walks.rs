//! Walks parked between pages hold neither their store nor open reads:
//! dropping every handle of a store frees what it parked, and a parked
//! walk keeps rows, not streams (nothing left unread in a connection).

use futures::executor::block_on;
use rowkey::store::{
    Cell, KeyLimit, MemStore, ParkedWalks, ReadRequest, Row, RowStream, Store, StoreError,
    StoreExt, WriteEpoch,
};
use rowkey::RowKey;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};

#[derive(RowKey)]
struct Post {
    #[salt(buckets = 8, binary)]
    board: u16,
    #[salt]
    author: u32,
    seq: u32,
}

/// A store over a MemStore with walks of its own, a token that lives as
/// long as any handle, and a count of its read streams still alive.
#[derive(Clone)]
struct Tracked {
    inner: MemStore,
    walks: Arc<ParkedWalks>,
    alive: Arc<()>,
    open: Arc<AtomicUsize>,
}

/// A read stream that counts itself open until dropped.
struct Counted {
    rows: RowStream,
    open: Arc<AtomicUsize>,
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.open.fetch_sub(1, Ordering::SeqCst);
    }
}

impl futures::Stream for Counted {
    type Item = Result<Row, StoreError>;
    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        self.rows.as_mut().poll_next(cx)
    }
}

impl Store for Tracked {
    fn key_limit(&self) -> KeyLimit {
        self.inner.key_limit()
    }
    fn write_rows(&self, rows: Vec<Row>) -> impl Future<Output = Result<(), StoreError>> + Send {
        let _writing = self.walks.writing();
        self.inner.write_rows(rows)
    }
    fn delete_rows(
        &self,
        keys: Vec<Vec<u8>>,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        let _writing = self.walks.writing();
        self.inner.delete_rows(keys)
    }
    fn read_rows(&self, request: ReadRequest) -> RowStream {
        self.open.fetch_add(1, Ordering::SeqCst);
        Box::pin(Counted {
            // Not ready at once, as over a network: reads are in flight
            // when a page has its rows.
            rows: rowkey_fixtures::stores::slow_rows(self.inner.read_rows(request)),
            open: self.open.clone(),
        })
    }
    fn parked_walks(&self) -> Option<&ParkedWalks> {
        Some(&self.walks)
    }
}

fn loaded() -> (Tracked, Weak<()>) {
    let store = Tracked {
        inner: MemStore::new(),
        walks: Arc::new(ParkedWalks::new(WriteEpoch::new())),
        alive: Arc::new(()),
        open: Arc::default(),
    };
    let rows: Vec<Row> = (0..2_000)
        .map(|seq| {
            let key = Post {
                board: 1,
                author: seq % 37,
                seq,
            }
            .to_vec()
            .unwrap();
            Row::new(key, vec![Cell::new("d", "v", "x")])
        })
        .collect();
    block_on(store.write_rows(rows)).unwrap();
    let alive = Arc::downgrade(&store.alive);
    (store, alive)
}

#[test]
fn dropping_every_handle_frees_the_walks_it_parked() {
    let (store, alive) = loaded();
    let plan = Post::scan().board.eq(1).plan().unwrap();
    let first = block_on(store.page(&plan, None, 10)).unwrap();
    let second = block_on(store.page(&plan, first.next.as_ref(), 10)).unwrap();
    assert!(second.next.is_some());
    assert_eq!(store.walks.len(), 1, "the walk is parked");
    drop((store, first, second));
    assert!(
        alive.upgrade().is_none(),
        "a parked walk kept its store (and so itself) alive"
    );
}

#[test]
fn a_parked_walk_holds_rows_not_open_reads() {
    let (store, _) = loaded();
    let plan = Post::scan().board.eq(1).plan().unwrap();
    let mut cursor = None;
    for page in 0..30 {
        let p = block_on(store.page(&plan, cursor.as_ref(), 25)).unwrap();
        assert_eq!(store.walks.len(), 1, "page {page}: parked");
        assert_eq!(
            store.open.load(Ordering::SeqCst),
            0,
            "page {page}: a parked walk left reads open"
        );
        cursor = p.next;
    }
}
