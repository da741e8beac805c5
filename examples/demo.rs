//! The seed layouts as `rowkey` structs: keys as the HBase shell prints
//! them, the layout a person can read, borrowed decoding, and the precise
//! errors that replace silent truncation.
//!
//! Run: `cargo run --example demo`

use rowkey::{KeyDisplay, RowKey};

/// Call records (rowkey-techniques.md 3.2): `bucket_tel_yyyyMMddHHmmss`.
/// The bucket is given by hand here; the salt attribute computes it later.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(separator = "_")]
struct CallRecord {
    #[text(width = 1)]
    bucket: u8,
    #[text(width = 11)]
    tel: u64,
    #[text(width = 14)]
    time: u64,
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
    for (bucket, tel, time) in [
        (2, 13812345678, 20211201120000),
        (1, 15900001111, 20220315083000),
    ] {
        let rec = CallRecord { bucket, tel, time };
        let key = rec.to_key()?;
        println!("  {key}  <- {rec:?}");
        assert_eq!(CallRecord::decode(&key)?, rec);
    }
    println!("{}", CallRecord::layout().explain());

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

    println!("== Errors, never truncation ==");
    let too_long = Spend {
        month: 202112,
        user: "a_name_longer_than_ten",
        at_ms: 0,
    };
    println!("  {}", too_long.to_key().unwrap_err());
    let too_many_digits = CallRecord {
        bucket: 12,
        tel: 13812345678,
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
