//! The seed layouts as `rowkey` structs: keys as the HBase shell prints
//! them, the layout a person can read, borrowed decoding, and the precise
//! errors that replace silent truncation.
//!
//! Run: `cargo run --example demo` (in memory), or against the Cloud
//! Bigtable emulator: `cargo run --example demo --features bigtable -- --bigtable`
//! (uses `BIGTABLE_EMULATOR_HOST` when set, else starts the emulator).

use rowkey::store::blocking::{BlockOn, BlockingStore};
use rowkey::store::{Cell, Row, Store};
use rowkey::{KeyDisplay, RowKey};
use std::time::Instant;

use layouts::{CallRecord, Ledger};
use rowkey_fixtures::layouts;

/// The spending ledger (section 5): month first so "everyone in December"
/// is one range, the user padded to a fixed width, newest first.
#[derive(RowKey, Debug, PartialEq)]
struct Spend<'a> {
    #[text(width = 6)]
    month: u32,
    #[pad(width = 10, fill = 0x01, align = left)]
    user: &'a str,
    #[desc_ts]
    at_ms: i64,
}

/// URLs by site (section 3.3): one site's pages sort together.
#[derive(RowKey, Debug, PartialEq)]
struct SitePage {
    #[max_len(64)]
    #[reverse(segments = ".")]
    host: String,
    #[max_len(256)]
    path: String,
}

/// Order status, newest first: `reverse(user_id) + (MAX - ts)`.
#[derive(RowKey, Debug, PartialEq)]
struct OrderStatus {
    #[text(width = 11)]
    #[reverse]
    user_id: u64,
    #[desc_ts]
    #[text]
    ts: i64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("== Call records: the Java layout, byte for byte ==");
    for (tel, time) in [(13812345678, 20211201120000), (15900001111, 20220315083000)] {
        let rec = CallRecord { tel, time };
        let key = rec.to_key()?;
        println!("  {key}  <- {rec:?}");
        assert_eq!(CallRecord::decode(&key)?, rec);
    }
    println!("{}", CallRecord::layout().explain());
    println!(
        "  pre-split: {}\n",
        CallRecord::split_keys().hbase_shell("calls", "d")
    );

    println!("== Spending ledger ==");
    let mut rows = Vec::new();
    for (user, at_ms) in [
        ("zhangsan", 1_638_316_800_000),
        ("zhangsan", 1_638_403_200_000),
        ("lisi", 1_638_316_800_000),
    ] {
        rows.push(
            Spend {
                month: 202112,
                user,
                at_ms,
            }
            .to_key()?,
        );
    }
    rows.sort();
    for key in &rows {
        // Decoding borrows `user` from the key: no copy, no allocation.
        let s = Spend::decode(key)?;
        println!("  {key}  -> user {:>8}, at {}", s.user, s.at_ms);
    }
    println!("  (sorted as HBase sorts: shorter padded names first, newest first per user)");
    println!("{}", Spend::layout().explain());

    println!("== URLs by site ==");
    for (host, path) in [
        ("www.iteblog.com", "/archives/2021"),
        ("blog.iteblog.com", "/"),
        ("www.example.org", "/index.html"),
    ] {
        let page = SitePage {
            host: host.into(),
            path: path.into(),
        };
        println!("  {}", page.to_key()?);
    }

    println!("\n== Order status ==");
    let key = OrderStatus {
        user_id: 13812345678,
        ts: 1_638_316_800_000,
    }
    .to_key()?;
    println!("  {key}  ({} bytes)\n", key.len());

    ledger(std::env::args().any(|a| a == "--bigtable"))?;

    println!("== Errors, never truncation ==");
    let too_long = Spend {
        month: 202112,
        user: "a_name_longer_than_ten",
        at_ms: 0,
    };
    println!("  {}", too_long.to_key().unwrap_err());
    let too_many_digits = CallRecord {
        tel: 138123456789,
        time: 20211201120000,
    };
    println!("  {}", too_many_digits.to_key().unwrap_err());
    let garbage = b"2_1381234567x_20211201120000";
    println!(
        "  decoding {}: {}",
        KeyDisplay(garbage),
        CallRecord::decode(garbage).unwrap_err()
    );
    Ok(())
}

/// The spending ledger in a store: 10,000 rows loaded, then its queries.
fn ledger(bigtable: bool) -> Result<(), Box<dyn std::error::Error>> {
    if bigtable {
        return bigtable_ledger();
    }
    println!("== Spending ledger in a MemStore (--bigtable for the emulator) ==");
    ledger_queries(&rowkey::store::blocking::MemStore::default())
}

#[cfg(not(feature = "bigtable"))]
fn bigtable_ledger() -> Result<(), Box<dyn std::error::Error>> {
    Err("--bigtable needs the bigtable feature: cargo run --example demo --features bigtable -- --bigtable".into())
}

#[cfg(feature = "bigtable")]
fn bigtable_ledger() -> Result<(), Box<dyn std::error::Error>> {
    use rowkey::bigtable::{blocking, TableSpec};
    // The emulator at BIGTABLE_EMULATOR_HOST, or one started (and stopped
    // when `_emulator` drops) for the demo.
    let (host, _emulator) = match std::env::var("BIGTABLE_EMULATOR_HOST") {
        Ok(host) => (host, None),
        Err(_) => {
            let e = rowkey_fixtures::emulator::Emulator::start();
            (e.host.clone(), Some(e))
        }
    };
    println!("== Spending ledger in Bigtable (emulator at {host}) ==");
    let splits = Ledger::split_keys();
    let spec = TableSpec::new("ledger", &["d"]).splits(&splits);
    blocking::create_table(Some(&host), "demo", "demo", &spec)?;
    println!(
        "  table 'ledger' created, pre-split into {} regions",
        splits.len() + 1
    );
    ledger_queries(&blocking::connect_emulator(
        &host, "demo", "demo", "ledger",
    )?)
}

fn ledger_queries<S: Store, E: BlockOn>(
    store: &BlockingStore<S, E>,
) -> Result<(), Box<dyn std::error::Error>> {
    const ROWS: usize = 10_000;
    let rows = Ledger::rows(ROWS);
    let start = Instant::now();
    // On stderr, and hidden when stderr is not a terminal.
    let bar = indicatif::ProgressBar::new(ROWS as u64).with_style(
        indicatif::ProgressStyle::with_template("  loading [{bar:20}] {pos}/{len} rows")?
            .progress_chars("## "),
    );
    for chunk in rows.chunks(1_000) {
        let batch: Result<Vec<Row>, _> = chunk
            .iter()
            .map(|r| {
                r.to_vec()
                    .map(|key| Row::new(key, vec![Cell::new("d", "amount", "12.50")]))
            })
            .collect();
        store.write_rows(batch?)?;
        bar.inc(chunk.len() as u64);
    }
    bar.finish_and_clear();
    println!("  loaded {ROWS} rows in {:.2?}", start.elapsed());
    let user = rows[0].user.clone();
    let one = Ledger::scan()
        .month
        .eq("2021-12".into())
        .user
        .eq(&user)
        .plan()?;
    let found = store.query(&one).collect::<Result<Vec<_>, _>>()?;
    println!(
        "  {user} in December: {} range, {} rows",
        one.len(),
        found.len()
    );
    print!("    {}", one.hbase_shell("ledger"));
    for row in found.iter().take(3) {
        let l: Ledger = row.key_as()?;
        println!("    {}  ({}{})", KeyDisplay(&row.key), l.month, l.rest);
    }
    let december = Ledger::scan().month.eq("2021-12".into()).plan()?;
    let all = store.query(&december).count();
    let brute = rows.iter().filter(|r| r.month == "2021-12").count();
    println!("  everyone in December: {} ranges (buckets {:?}), {} rows, merged as they stream (a filter over the data: {brute})", december.len(), december.buckets(), all);
    let first = store.page(&december, None, 5)?;
    println!(
        "  first page of 5, resuming after {}:",
        first
            .next
            .as_ref()
            .map(|c| KeyDisplay(c.after()))
            .map(|k| k.to_string())
            .unwrap_or_default()
    );
    for row in &first.rows {
        let l: Ledger = row.key_as()?;
        println!("    {:<8} {}", l.user, KeyDisplay(&row.key));
    }
    println!("  all {} queries answered in {:.2?}\n", 3, start.elapsed());
    Ok(())
}
