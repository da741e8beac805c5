//! The seed layouts as `rowkey` structs: keys as the HBase shell prints
//! them, the layout a person can read, borrowed decoding, and the precise
//! errors that replace silent truncation.
//!
//! Run: `cargo run --example demo`

use rowkey::salt::{java_abs_mod, java_hash_code};
use rowkey::scan::merge_sorted;
use rowkey::{KeyDisplay, RowKey};
use std::collections::BTreeMap;

/// The seed's Java bucket: `Math.abs(last4(tel).hashCode() ^
/// yyyyMM(time).hashCode()) % 6`.
fn call_bucket(r: &CallRecord) -> u32 {
    let (tel, time) = (r.tel.to_string(), r.time.to_string());
    java_abs_mod(java_hash_code(&tel[7..]) ^ java_hash_code(&time[..6]), 6)
}

/// Call records (rowkey-techniques.md 3.2): `bucket_tel_yyyyMMddHHmmss`,
/// the bucket computed as the Java code computes it.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(separator = "_")]
struct CallRecord {
    #[salt(buckets = 6, hash = call_bucket)]
    #[text(width = 11)]
    tel: u64,
    #[salt]
    #[text(width = 14)]
    time: u64,
}

/// The salted ledger (section 5): bucket `(month - 1) * 10 + hash % 10`,
/// so one month lives in ten buckets.
#[derive(RowKey, Debug, PartialEq)]
struct Ledger<'a> {
    #[salt(buckets = 120, group_by = month, range = 1..=12, per_group = 10)]
    #[text(width = 2)]
    month: u8,
    #[salt]
    #[pad(width = 10, fill = 0x01, align = left)]
    user: &'a str,
    #[desc_ts]
    at_ms: i64,
}

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

    println!("== Salted ledger: queries as ranges ==");
    let mut table = BTreeMap::new();
    for (month, user, at_ms) in [
        (11, "lisi", 1_635_724_800_000),
        (12, "zhangsan", 1_638_316_800_000),
        (12, "zhangsan", 1_638_403_200_000),
        (12, "lisi", 1_638_316_900_000),
        (12, "wangwu", 1_638_317_000_000),
    ] {
        let row = Ledger { month, user, at_ms };
        table.insert(row.to_vec()?, format!("{user} spent in month {month}"));
    }
    let one_user = Ledger::scan().month(12).user("zhangsan").plan()?;
    println!("  user zhangsan in December: {} range", one_user.len());
    print!("    {}", one_user.hbase_shell("spend"));
    let december = Ledger::scan().month(12).plan()?;
    println!(
        "  everyone in December: {} ranges (not 120), buckets {:?}",
        december.len(),
        december.buckets()
    );
    // Read each bucket's range, then merge back into key order (salt ignored).
    let per_bucket: Vec<Vec<(&Vec<u8>, &String)>> = december
        .ranges()
        .map(|r| {
            table
                .range(r.start().to_vec()..)
                .take_while(|(k, _)| r.contains(k))
                .collect()
        })
        .collect();
    for (key, value) in merge_sorted(per_bucket, december.prefix_len(), None) {
        println!("    {}  {value}", KeyDisplay(key));
    }
    let latest = Ledger::scan().month(12).user("zhangsan").at_ms_latest()?;
    println!(
        "  zhangsan's latest December row: limit {:?} on {}\n",
        latest.limit(),
        latest.range(latest.buckets().start)
    );

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
