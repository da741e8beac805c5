//! Fuzzy keys on the Bigtable emulator, which evaluates the
//! `RowKeyRegexFilter` itself: thousands of keys full of 0x00, 0xFF, `\n`
//! and regex metacharacters, and the rows `BigtableStore` returns for a
//! fuzzy plan are exactly the brute force's (forwards, backwards, with
//! limits, in small pages); and a filtered read cut mid-stream by the
//! fault proxy still returns every matching row once, in order.

use futures::TryStreamExt;
use rowkey::scan::{FuzzyKey, ScanPlan};
use rowkey::store::{Cell, QueryOptions, RetryPolicy, Row, Store, StoreExt};
use rowkey::RowKey;
use rowkey_bigtable::{BigtableAdmin, BigtableStore, TableSpec};
use rowkey_fixtures::emulator::Emulator;
use rowkey_fixtures::layouts::Ledger;
use rowkey_fixtures::proxy::{Fault, FaultProxy};
use std::collections::BTreeSet;
use std::time::Duration;

async fn table(host: &str, name: &str) -> BigtableStore {
    BigtableAdmin::connect_emulator(host, "p", "i")
        .unwrap()
        .create_table(&TableSpec::new(name, &["d"]))
        .await
        .unwrap();
    BigtableStore::connect_emulator(host, "p", "i", name)
        .await
        .unwrap()
}

/// xorshift64: the same adversarial keys on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Mostly bytes that trouble a regex or a binary key.
    fn byte(&mut self) -> u8 {
        const HARD: &[u8] = b"\x00\x01\n\r\xFF\xFE\x80\xC3.*+?()[]{}|^$\\";
        let r = self.next();
        match r % 3 {
            0 => HARD[(r >> 8) as usize % HARD.len()],
            1 => b"ab"[(r >> 8) as usize % 2],
            _ => (r >> 8) as u8,
        }
    }
}

async fn write(store: &BigtableStore, keys: &BTreeSet<Vec<u8>>) {
    let rows: Vec<Row> = keys
        .iter()
        .map(|k| Row::new(k.clone(), vec![Cell::new("d", "v", "x")]))
        .collect();
    store.write_rows(rows).await.unwrap();
}

async fn keys_of(
    rows: impl futures::Stream<Item = Result<Row, rowkey::store::StoreError>>,
) -> Vec<Vec<u8>> {
    rows.map_ok(|r| r.key).try_collect().await.unwrap()
}

/// The keys of `all` a plan selects (brute force).
fn brute<const N: usize>(all: &BTreeSet<Vec<u8>>, plan: &ScanPlan<N>) -> Vec<Vec<u8>> {
    rowkey_fixtures::brute::fuzzy_plan_keys(all, plan)
}

/// Patterns of fixed and free runs drawn from the same bytes.
fn patterns(rng: &mut Rng) -> Vec<FuzzyKey<16>> {
    let mut out = Vec::new();
    for i in 0..40 {
        let mut k = FuzzyKey::new();
        // Start free half of the time: the point of a fuzzy key.
        if i % 2 == 0 {
            k.push_free(1 + (rng.next() % 2) as usize).unwrap();
        }
        for _ in 0..1 + rng.next() % 3 {
            if rng.next() % 3 == 0 {
                k.push_free(1).unwrap();
            } else {
                k.push_fixed(&[rng.byte()]).unwrap();
            }
        }
        out.push(k);
    }
    out
}

#[tokio::test(flavor = "current_thread")]
async fn the_emulator_selects_exactly_the_brute_force_keys() {
    let emu = Emulator::start();
    let store = table(&emu.host, "raw").await;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut keys = BTreeSet::new();
    while keys.len() < 3_000 {
        let len = 1 + (rng.next() % 6) as usize;
        keys.insert((0..len).map(|_| rng.byte()).collect::<Vec<u8>>());
    }
    write(&store, &keys).await;
    let small_pages = store.clone().with_read_page_rows(7);
    let (mut matched, mut total) = (0, 0);
    for fuzzy in patterns(&mut rng) {
        let plan = ScanPlan::<16>::all().with_fuzzy(fuzzy);
        let want = brute(&keys, &plan);
        matched += usize::from(!want.is_empty());
        total += want.len();
        let got = keys_of(store.read_plan(&plan)).await;
        assert_eq!(got, want, "read_plan {}", fuzzy.bigtable_regex());
        let got = keys_of(small_pages.query(&plan)).await;
        assert_eq!(got, want, "query in pages of 7 {}", fuzzy.bigtable_regex());
        let back = plan.reversed().with_limit(5);
        assert_eq!(
            keys_of(store.query(&back)).await,
            brute(&keys, &back),
            "reversed, 5"
        );
        // Within a range: the filter and the bounds together.
        let ranged = ScanPlan::<16>::from_bounds(b"a", Some(b"\xFE"))
            .unwrap()
            .with_fuzzy(fuzzy);
        let options = QueryOptions::default().page_rows(3);
        assert_eq!(
            keys_of(store.query_with(&ranged, options)).await,
            brute(&keys, &ranged)
        );
    }
    eprintln!("40 patterns over 3,000 keys: {matched} select rows, {total} rows in all");
    assert!(matched >= 20 && total >= 1_000, "the patterns select rows");
}

/// "Status X, for any user": a salted key with its leading field free.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Event {
    #[salt(buckets = 8, binary)]
    user: u32,
    status: u8,
    seq: u16,
}

#[tokio::test(flavor = "current_thread")]
async fn a_salted_query_with_a_free_user_matches_brute_force() {
    let emu = Emulator::start();
    let store = table(&emu.host, "events").await;
    let mut rng = Rng(7);
    let statuses = *b"\x00\n\xFF.*\\a";
    let mut keys = BTreeSet::new();
    while keys.len() < 4_000 {
        let user = u32::from_be_bytes([rng.byte(), rng.byte(), rng.byte(), rng.byte()]);
        let status = statuses[(rng.next() % statuses.len() as u64) as usize];
        let seq = u16::from_be_bytes([rng.byte(), rng.byte()]);
        keys.insert(Event { user, status, seq }.to_vec().unwrap());
    }
    write(&store, &keys).await;
    for status in statuses {
        let plan = Event::scan().plan().unwrap();
        let mut fuzzy = FuzzyKey::new();
        fuzzy.push_free(plan.prefix_len() + 4).unwrap();
        fuzzy.push_fixed(&[status]).unwrap();
        let plan = plan.with_fuzzy(fuzzy);
        let want = brute(&keys, &plan);
        assert!(
            want.len() > 300,
            "status {status:#04x}: {} rows",
            want.len()
        );
        assert_eq!(
            keys_of(store.query(&plan)).await,
            want,
            "status {status:#04x}"
        );
        let back = plan.clone().reversed().with_limit(50);
        assert_eq!(keys_of(store.query(&back)).await, brute(&keys, &back));
        let mut stored = keys_of(store.read_plan(&plan)).await;
        stored.sort();
        let mut sorted = want.clone();
        sorted.sort();
        assert_eq!(stored, sorted, "read_plan, status {status:#04x}");
        // Keyset pages: each resumes after the last row, filter kept.
        let (mut paged, mut resume) = (Vec::new(), None::<rowkey::scan::Cursor>);
        loop {
            let page = store.page(&plan, resume.as_ref(), 97).await.unwrap();
            paged.extend(page.rows.into_iter().map(|r| r.key));
            match page.next {
                Some(next) => resume = Some(next),
                None => break,
            }
        }
        assert_eq!(paged, want, "pages, status {status:#04x}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_filtered_read_cut_mid_stream_returns_every_matching_row_once() {
    let emu = Emulator::start();
    let direct = table(&emu.host, "ledger").await;
    let rows = Ledger::distinct_rows(10_000);
    let all: BTreeSet<Vec<u8>> = rows.iter().map(|r| r.key.clone()).collect();
    direct.write_rows(rows).await.unwrap();
    // Days 10 to 19 of any month, any user: bucket, month and user free,
    // then `-1` of `-dd hh:mm:ss`.
    let plan = Ledger::scan().plan().unwrap();
    let mut fuzzy = FuzzyKey::new();
    fuzzy.push_free(plan.prefix_len() + 7 + 10).unwrap();
    fuzzy.push_fixed(b"-1").unwrap();
    let plan = plan.with_fuzzy(fuzzy);
    let want = brute(&all, &plan);
    assert!(want.len() > 2_500, "{} rows", want.len());
    let retry = RetryPolicy::default()
        .attempts(6)
        .backoff_between(Duration::from_millis(10), Duration::from_millis(200))
        .idle_timeout(Duration::from_secs(5));
    const CUTS: [Fault; 3] = [
        Fault::CutAfter(20_000),
        Fault::CutAfter(45_000),
        Fault::CutAfter(70_000),
    ];
    let through = |proxy: &FaultProxy| {
        let addr = proxy.addr.clone();
        async move {
            BigtableStore::connect_emulator(&addr, "p", "i", "ledger")
                .await
                .unwrap()
                .with_retry(retry)
        }
    };
    // The merged query over 120 buckets, then one multi-range read.
    let proxy = FaultProxy::start(&emu.host);
    proxy.plan(CUTS);
    let got = keys_of(through(&proxy).await.query(&plan)).await;
    eprintln!(
        "query: {} connections, {} cut, {} of {} rows",
        proxy.connections(),
        proxy.cuts(),
        got.len(),
        want.len()
    );
    assert_eq!(proxy.cuts(), CUTS.len(), "every planned cut happened");
    assert_eq!(got, want, "query under cuts: every row once, in order");

    let proxy = FaultProxy::start(&emu.host);
    proxy.plan(CUTS);
    let got = keys_of(through(&proxy).await.read_plan(&plan)).await;
    eprintln!(
        "read_plan: {} connections, {} cut",
        proxy.connections(),
        proxy.cuts()
    );
    assert_eq!(proxy.cuts(), CUTS.len(), "every planned cut happened");
    let mut sorted = want.clone();
    sorted.sort();
    assert_eq!(
        got, sorted,
        "read_plan under cuts: every row once, in stored order"
    );
}
