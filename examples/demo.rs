//! The seed layouts as `rowkey` structs: keys as the HBase shell prints
//! them, the layout a person can read, borrowed decoding, the spending
//! ledger loaded in bulk with an index by amount and queried, and the
//! precise errors that replace silent truncation.
//!
//! Run: `cargo run --example demo` (in memory), against the Cloud
//! Bigtable emulator: `cargo run --example demo --features bigtable -- --bigtable`
//! (uses `BIGTABLE_EMULATOR_HOST` when set, else starts the emulator), or
//! against HBase: `cargo run --example demo --features hbase -- --hbase`
//! (uses the Thrift server at `HBASE_THRIFT` when set, as
//! `cargo run -p rowkey-fixtures --bin hbase-server` prints it; else
//! starts a standalone HBase for the demo, about 20 s).

use rowkey::store::blocking::{BlockOn, BlockingIndexedStore};
use rowkey::store::{
    Cell, IndexedStore, MemStore, PutRecordsOptions, Record, RecordError, Row, Store,
};
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

    let backend = std::env::args().find(|a| a == "--bigtable" || a == "--hbase");
    ledger(backend.as_deref())?;

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

/// A ledger entry: the ledger's key and the amount spent, which only its
/// cells hold. Loaded with its index by amount.
#[derive(Debug, Clone, PartialEq)]
struct Entry {
    month: String,
    user: String,
    rest: String,
    cents: u32,
}

impl Record for Entry {
    type Key = Ledger;
    fn key(&self) -> Ledger {
        Ledger {
            month: self.month.clone(),
            user: self.user.clone(),
            rest: self.rest.clone(),
        }
    }
    fn cells(&self) -> Vec<Cell> {
        let amount = format!("{}.{:02}", self.cents / 100, self.cents % 100);
        vec![Cell::new("d", "amount", amount)]
    }
    fn from_row(row: &Row) -> Result<Self, RecordError> {
        let key: Ledger = row.key_as()?;
        let amount = std::str::from_utf8(row.value("d", "amount").ok_or("no d:amount")?)?;
        let (units, cents) = amount.split_once('.').ok_or("no cents")?;
        Ok(Entry {
            month: key.month,
            user: key.user,
            rest: key.rest,
            cents: units.parse::<u32>()? * 100 + cents.parse::<u32>()?,
        })
    }
}

/// A month's spending, largest first: a query the ledger's key (month,
/// user, time) cannot answer, so a second table keyed by amount.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(index_of = Entry)]
struct SpendByAmount {
    #[pad(width = 7)]
    month: String,
    #[desc]
    cents: u32,
    #[pad(width = 10, fill = 0x01, align = left)]
    user: String,
    #[pad(width = 12)]
    rest: String,
}

/// The spending ledger in a store: 10,000 entries loaded with their index
/// by amount, then its queries.
fn ledger(backend: Option<&str>) -> Result<(), Box<dyn std::error::Error>> {
    match backend {
        Some("--bigtable") => return bigtable_ledger(),
        Some("--hbase") => return hbase_ledger(),
        _ => {}
    }
    println!(
        "== Spending ledger in a MemStore (--bigtable for the emulator, --hbase for HBase) =="
    );
    let memory = IndexedStore::new(MemStore::new(), MemStore::new());
    ledger_queries(&rowkey::store::blocking::IndexedMemStore::new(memory))
}

#[cfg(not(feature = "bigtable"))]
fn bigtable_ledger() -> Result<(), Box<dyn std::error::Error>> {
    Err("--bigtable needs the bigtable feature: cargo run --example demo --features bigtable -- --bigtable".into())
}

#[cfg(feature = "bigtable")]
fn bigtable_ledger() -> Result<(), Box<dyn std::error::Error>> {
    use rowkey::bigtable::blocking::{self, IndexedBigtableStore, Runtime};
    use rowkey::bigtable::{BigtableStore, TableSpec};
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
    let index = TableSpec::new("ledger_by_amount", &["i"]);
    blocking::create_table(Some(&host), "demo", "demo", &index)?;
    println!(
        "  tables 'ledger' (pre-split into {} regions) and 'ledger_by_amount' created",
        splits.len() + 1
    );
    // Both tables' clients on the runtime that runs the blocking calls.
    let rt = Runtime::new()?;
    let connect = |table| BigtableStore::connect_emulator(&host, "demo", "demo", table);
    let main = rt.block_on("connect", connect("ledger"))??;
    let index = rt.block_on("connect", connect("ledger_by_amount"))??;
    ledger_queries(&IndexedBigtableStore::with_executor(
        IndexedStore::new(main, index),
        rt,
    ))
}

#[cfg(not(feature = "hbase"))]
fn hbase_ledger() -> Result<(), Box<dyn std::error::Error>> {
    Err(
        "--hbase needs the hbase feature: cargo run --example demo --features hbase -- --hbase"
            .into(),
    )
}

#[cfg(feature = "hbase")]
fn hbase_ledger() -> Result<(), Box<dyn std::error::Error>> {
    use rowkey::hbase::blocking;
    use rowkey::store::admin::{TableSpec, TableStatus};
    use rowkey::store::blocking::ParkingExecutor;
    // The server at HBASE_THRIFT, or one started (and stopped when
    // `_server` drops) for the demo.
    let (address, _server) = match std::env::var("HBASE_THRIFT") {
        Ok(address) => (address, None),
        Err(_) => {
            println!("  starting a standalone HBase for the demo (HBASE_THRIFT=host:port to use yours)...");
            let s = rowkey_fixtures::hbase::HBase::start();
            (s.thrift.clone(), Some(s))
        }
    };
    println!("== Spending ledger in HBase (Thrift 1 server at {address}) ==");
    let client = blocking::client(&address)?;
    let admin = client.admin();
    // A fresh pair of tables each run: the demo loads them anew.
    for table in ["ledger", "ledger_by_amount"] {
        if blocking::block_on(admin.table_names())?
            .iter()
            .any(|t| t == table)
        {
            blocking::block_on(admin.delete_table(table))?;
        }
    }
    let created =
        blocking::block_on(admin.create_table_if_missing(&TableSpec::new("ledger", &["d"])))?;
    blocking::block_on(admin.create_table_if_missing(&TableSpec::new("ledger_by_amount", &["i"])))?;
    assert_eq!(created, TableStatus::Created);
    let splits = Ledger::split_keys();
    println!(
        "  tables 'ledger' and 'ledger_by_amount' created; Thrift 1 cannot pre-split, the shell can:\n    {}",
        splits.hbase_shell("ledger", "d").chars().take(100).collect::<String>() + " ..."
    );
    let store = IndexedStore::new(client.table("ledger"), client.table("ledger_by_amount"));
    ledger_queries(&blocking::IndexedHBaseStore::with_executor(
        store,
        ParkingExecutor,
    ))
}

fn ledger_queries<S: Store, E: BlockOn>(
    ledger: &BlockingIndexedStore<S, S, E>,
) -> Result<(), Box<dyn std::error::Error>> {
    const ROWS: usize = 10_000;
    let rows = Ledger::rows(ROWS);
    let entries = rows.iter().enumerate().map(|(i, r)| Entry {
        month: r.month.clone(),
        user: r.user.clone(),
        rest: r.rest.clone(),
        cents: (i as u32).wrapping_mul(2_654_435_761) % 500_000,
    });
    let start = Instant::now();
    // On stderr, and hidden when stderr is not a terminal.
    let bar = indicatif::ProgressBar::new(ROWS as u64).with_style(
        indicatif::ProgressStyle::with_template("  loading [{bar:20}] {pos}/{len} entries, {msg}")?
            .progress_chars("## "),
    );
    // Batches of 1,000 entries: the ledger rows, then the index rows
    // pointing at them; the bar counts the committed entries.
    let loaded = ledger.put_records_with::<SpendByAmount, _>(
        entries,
        PutRecordsOptions::default(),
        |p| {
            bar.set_message(format!("{} rows, {} KiB written", p.rows, p.bytes / 1024));
            bar.set_position(p.records);
        },
    )?;
    bar.finish_and_clear();
    println!(
        "  loaded {} entries with their index by amount ({} rows, {} KiB) in {:.2?}",
        loaded.records,
        loaded.rows,
        loaded.bytes / 1024,
        start.elapsed()
    );
    let store = ledger.main();
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
    let largest = SpendByAmount::scan()
        .month
        .eq("2021-12")
        .plan()?
        .with_limit(3);
    println!("  December's largest spends, through the index:");
    for e in ledger.query_records::<SpendByAmount, Entry, _>(&largest) {
        let e = e?;
        println!(
            "    {:>4}.{:02}  {:<7} {}{}",
            e.cents / 100,
            e.cents % 100,
            e.user,
            e.month,
            e.rest
        );
    }
    println!("  all {} queries answered in {:.2?}\n", 4, start.elapsed());
    Ok(())
}
