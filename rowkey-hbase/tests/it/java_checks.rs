//! What only a real HBase can say, asked through HBase's own Java client
//! (`rowkey_fixtures::hbase::JavaClient`) over tables written from Rust:
//!
//! - `FuzzyKey::hbase_fuzzy_pair` as a real `FuzzyRowFilter` keeps
//!   exactly the rows the plan keeps, on random patterns, bounds and keys
//!   full of `0x00` and `0xFF`; on raw keys shorter than the pattern it
//!   keeps the ones that agree with it, as `FuzzyKey`'s docs say HBase
//!   does, where the plan does not;
//! - reversed scans through Thrift return exactly the forward rows
//!   reversed, and what the Java client's reversed scan returns;
//! - cells written by `#[derive(Record)]` read back with HBase's own
//!   `Bytes.toLong`, `toDouble`, `toString`, `toBigDecimal` and the rest;
//! - keys written from Rust print with `Bytes.toStringBinary` exactly as
//!   `KeyBuf`'s `Display` prints them.

use crate::server::{client, fresh_table};
use futures::TryStreamExt;
use rowkey::scan::{FuzzyKey, ScanPlan};
use rowkey::store::{Cell, KeyRange, ReadRequest, Row, Store, StoreExt};
use rowkey::{Record, RowKey};
use rowkey_fixtures::conformance::fuzzy::pattern;
use rowkey_fixtures::conformance::support::{
    adversarial_byte, adversarial_bytes, adversarial_u32, coin,
};
use rowkey_fixtures::hbase::{shared, JavaClient};
use rowkey_fixtures::layouts::Rng;
use rowkey_hbase::HBaseStore;
use std::collections::BTreeSet;

async fn load(store: &HBaseStore, keys: &BTreeSet<Vec<u8>>) {
    let rows = keys
        .iter()
        .map(|k| Row::new(k.clone(), vec![Cell::new("d", "v", k.clone())]))
        .collect();
    store.write_rows(rows).await.unwrap();
}

/// Whether the first `min(row, pattern)` bytes agree at every fixed
/// position (`FuzzyRowFilter`'s byte test, before its seek hint).
fn hbase_bytes_agree(row: &[u8], mask: &[u8], key: &[u8]) -> bool {
    row.iter()
        .zip(mask)
        .zip(key)
        .all(|((&b, &m), &k)| m == 1 || b == k)
}

/// Adversarial bytes, fewer than `n`.
fn bytes_below(rng: &mut Rng, n: u64) -> Vec<u8> {
    let len = rng.below(n) as usize;
    adversarial_bytes(rng, len)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fuzzy_row_filter_keeps_what_the_plan_keeps_on_raw_keys() {
    let client = client().await;
    let mut java = JavaClient::start(shared());
    let mut rng = Rng(0xF022_0001);
    let (mut compared, mut shorter_agreeing, mut shorter_kept) = (0, 0, 0);
    for round in 0..12 {
        let table = fresh_table(&client, &["d"]).await;
        let store = client.table(&table);
        let keys: BTreeSet<Vec<u8>> = (0..rng.below(150))
            .map(|_| {
                let len = 1 + rng.below(6) as usize;
                adversarial_bytes(&mut rng, len)
            })
            .collect();
        load(&store, &keys).await;
        for _ in 0..4 {
            let fuzzy = pattern(&mut rng);
            let (row, mask) = fuzzy.hbase_fuzzy_pair();
            let plan = if coin(&mut rng) {
                let start = bytes_below(&mut rng, 3);
                let stop = coin(&mut rng).then(|| bytes_below(&mut rng, 2));
                ScanPlan::<16>::from_bounds(&start, stop.as_deref()).expect("fits")
            } else {
                ScanPlan::all()
            }
            .with_fuzzy(fuzzy);
            for range in plan.ranges() {
                let (start, stop) = (range.start(), range.stop());
                if stop.is_some_and(|s| s <= start) {
                    continue;
                }
                let got: BTreeSet<Vec<u8>> = java
                    .fuzzy(&table, start, stop, &[(row.clone(), mask.clone())])
                    .into_iter()
                    .collect();
                let in_range =
                    |k: &&Vec<u8>| k.as_slice() >= start && stop.is_none_or(|s| k.as_slice() < s);
                let planned: BTreeSet<Vec<u8>> = keys
                    .iter()
                    .filter(in_range)
                    .filter(|k| plan.contains(k))
                    .cloned()
                    .collect();
                // Keys as long as the pattern: exactly the plan's.
                let long: BTreeSet<Vec<u8>> = got
                    .iter()
                    .filter(|k| k.len() >= row.len())
                    .cloned()
                    .collect();
                assert_eq!(
                    long, planned,
                    "round {round}: {plan:?}: pair {row:?} {mask:?}"
                );
                // Shorter ones: only rows that agree with the pattern as far
                // as they reach (FuzzyRowFilter's byte test); whether HBase
                // returns such a row depends on the seek hint the row
                // before it gave, so some are kept and some passed over.
                let shorter: Vec<&Vec<u8>> = got.iter().filter(|k| k.len() < row.len()).collect();
                for k in &shorter {
                    assert!(
                        hbase_bytes_agree(&row, &mask, k),
                        "round {round}: {plan:?}: {k:?} kept but disagrees with {row:?} {mask:?}"
                    );
                }
                shorter_kept += shorter.len();
                shorter_agreeing += keys
                    .iter()
                    .filter(in_range)
                    .filter(|k| k.len() < row.len() && hbase_bytes_agree(&row, &mask, k))
                    .count();
                compared += 1;
            }
        }
    }
    eprintln!(
        "FuzzyRowFilter: {compared} scans, each the plan's rows among keys as long as the \
         pattern; of {shorter_agreeing} shorter keys agreeing with it, HBase kept \
         {shorter_kept} (the plan: none)"
    );
}

/// "Status X for any user": salted, fixed width, leading field free.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Event {
    #[salt(buckets = 8, binary)]
    user: u32,
    status: u8,
    seq: u16,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fuzzy_row_filter_keeps_what_a_salted_plan_keeps() {
    let client = client().await;
    let mut java = JavaClient::start(shared());
    let mut rng = Rng(0xF022_0002);
    for round in 0..6 {
        let table = fresh_table(&client, &["d"]).await;
        let store = client.table(&table);
        let keys: BTreeSet<Vec<u8>> = (0..300)
            .map(|_| {
                let e = Event {
                    user: adversarial_u32(&mut rng),
                    status: adversarial_byte(&mut rng),
                    seq: rng.next_u64() as u16,
                };
                e.to_vec().unwrap()
            })
            .collect();
        load(&store, &keys).await;
        let status = adversarial_byte(&mut rng);
        let plan = Event::scan().plan().unwrap();
        let mut fuzzy = FuzzyKey::new();
        fuzzy.push_free(plan.prefix_len() + 4).unwrap();
        fuzzy.push_fixed(&[status]).unwrap();
        let plan = plan.with_fuzzy(fuzzy);
        let pair = plan.fuzzy().unwrap().hbase_fuzzy_pair();
        let mut got = BTreeSet::new();
        for range in plan.ranges() {
            got.extend(java.fuzzy(
                &table,
                range.start(),
                range.stop(),
                std::slice::from_ref(&pair),
            ));
        }
        let want: BTreeSet<Vec<u8>> = keys.iter().filter(|k| plan.contains(k)).cloned().collect();
        assert_eq!(got, want, "round {round}: status {status:#04x}");
        // And the store's own client-side filtering agrees.
        let read: BTreeSet<Vec<u8>> = store
            .query(&plan)
            .map_ok(|r| r.key)
            .try_collect()
            .await
            .unwrap();
        assert_eq!(read, want, "round {round}: query");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reversed_scans_return_the_forward_rows_reversed() {
    let client = client().await;
    let mut java = JavaClient::start(shared());
    let mut rng = Rng(0x5EED_0003);
    let table = fresh_table(&client, &["d"]).await;
    let store = client.table(&table).with_read_page_rows(3);
    let keys: BTreeSet<Vec<u8>> = (0..400)
        .map(|_| {
            let len = 1 + rng.below(5) as usize;
            adversarial_bytes(&mut rng, len)
        })
        .collect();
    load(&store, &keys).await;
    for case in 0..40 {
        let start = bytes_below(&mut rng, 3);
        let stop = coin(&mut rng).then(|| bytes_below(&mut rng, 3));
        let limit = coin(&mut rng).then(|| rng.below(50));
        let mut request = ReadRequest::new([KeyRange::new(start.clone(), stop.clone())]);
        if let Some(l) = limit {
            request = request.with_limit(l);
        }
        let forward: Vec<Vec<u8>> = store
            .read_rows(ReadRequest::new([KeyRange::new(
                start.clone(),
                stop.clone(),
            )]))
            .map_ok(|r| r.key)
            .try_collect()
            .await
            .unwrap();
        let backward: Vec<Vec<u8>> = store
            .read_rows(request.reversed())
            .map_ok(|r| r.key)
            .try_collect()
            .await
            .unwrap();
        let mut want: Vec<Vec<u8>> = forward.iter().rev().cloned().collect();
        if let Some(l) = limit {
            want.truncate(l as usize);
        }
        assert_eq!(
            backward, want,
            "case {case}: [{start:?}, {stop:?}) limit {limit:?}"
        );
        // HBase's Java client, reading backwards from the range's last
        // key (inclusive) to the table's start, cut at the range's first.
        if let (Some(last), Some(first)) = (forward.last(), forward.first()) {
            let java_rows: Vec<Vec<u8>> = java
                .reversed(&table, last, &[])
                .into_iter()
                .take_while(|k| k >= first)
                .collect();
            let expected: Vec<Vec<u8>> = forward.iter().rev().cloned().collect();
            assert_eq!(
                java_rows, expected,
                "case {case}: the Java client's reversed scan"
            );
        }
    }
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct AccountKey {
    id: u64,
}

#[derive(Record, Debug, Clone, PartialEq)]
#[record(key = AccountKey, family = "d")]
struct Account {
    id: u64,
    balance: i64,
    visits: i32,
    level: i16,
    score: f64,
    ratio: f32,
    name: String,
    active: bool,
    amount: rust_decimal::Decimal,
    raw: Vec<u8>,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn record_cells_read_back_with_hbase_bytes() {
    use std::str::FromStr;
    let client = client().await;
    let mut java = JavaClient::start(shared());
    let table = fresh_table(&client, &["d"]).await;
    let store = client.table(&table);
    let accounts = [
        Account {
            id: 1,
            balance: -9_007_199_254_740_993,
            visits: i32::MIN,
            level: -2,
            score: -0.0,
            ratio: 1.5e-7,
            name: "zhängsan \u{1F600}".into(),
            active: true,
            amount: rust_decimal::Decimal::from_str("-12345678901234567890.123456").unwrap(),
            raw: vec![0, 0xFF, b'\n'],
        },
        Account {
            id: u64::MAX,
            balance: i64::MAX,
            visits: 7,
            level: i16::MAX,
            score: 1e300,
            ratio: f32::MIN_POSITIVE,
            name: String::new(),
            active: false,
            amount: rust_decimal::Decimal::from_str("0.10").unwrap(),
            raw: vec![],
        },
    ];
    for a in &accounts {
        store.put_record(a).await.unwrap();
    }
    for a in &accounts {
        let key = AccountKey { id: a.id }.to_vec().unwrap();
        let mut cell = |q: &str, kind: &str| {
            java.cell(&table, &key, "d", q.as_bytes(), kind)
                .unwrap_or_else(|e| panic!("d:{q} as {kind}: {e}"))
        };
        assert_eq!(cell("balance", "long"), a.balance.to_string());
        assert_eq!(cell("visits", "int"), a.visits.to_string());
        assert_eq!(cell("level", "short"), a.level.to_string());
        assert_eq!(cell("score", "double"), java_double(a.score));
        assert_eq!(cell("ratio", "float"), java_float(a.ratio));
        assert_eq!(cell("name", "string"), a.name);
        assert_eq!(cell("active", "boolean"), a.active.to_string());
        assert_eq!(cell("amount", "bigdecimal"), a.amount.to_string());
        if !a.raw.is_empty() {
            assert_eq!(cell("raw", "hex"), hex(&a.raw));
        }
        // And the row reads back as the record.
        let back: Account = store
            .get_record(&AccountKey { id: a.id })
            .await
            .unwrap()
            .unwrap();
        assert_eq!(&back, a);
    }
}

/// `Double.toString` of the values above.
fn java_double(v: f64) -> String {
    match v {
        v if v == 0.0 && v.is_sign_negative() => "-0.0".into(),
        1e300 => "1.0E300".into(),
        v => format!("{v:?}"),
    }
}

/// `Float.toString` of the values above.
fn java_float(v: f32) -> String {
    if v == f32::MIN_POSITIVE {
        "1.17549435E-38".into()
    } else {
        "1.5E-7".into()
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_print_with_to_string_binary_as_keybuf_displays_them() {
    use rowkey_fixtures::layouts::Ledger;
    use rowkey_fixtures::Spend;
    let client = client().await;
    let mut java = JavaClient::start(shared());
    let table = fresh_table(&client, &["d"]).await;
    let store = client.table(&table);
    let mut shown = std::collections::BTreeMap::new();
    for (i, user) in ["zhangsan", "", "a\u{7f}b", "\u{e9}t\u{e9}", "x'y\"z\\"]
        .iter()
        .enumerate()
    {
        let spend = Spend {
            month: 202112,
            user,
            at_ms: 1_638_316_800_000 - i as i64,
        };
        let key = spend.to_key().unwrap();
        shown.insert(key.to_vec(), key.to_string());
        store
            .put(&spend, vec![Cell::new("d", "v", "x")])
            .await
            .unwrap();
    }
    for row in Ledger::distinct_rows(50) {
        let key = rowkey::KeyDisplay(&row.key).to_string();
        shown.insert(row.key.clone(), key);
        store.write_rows(vec![row]).await.unwrap();
    }
    let printed = java.keys(&table);
    assert_eq!(printed.len(), shown.len());
    for (key, binary) in printed {
        assert_eq!(
            Some(&binary),
            shown.get(&key),
            "Bytes.toStringBinary of {key:?}"
        );
    }
}
