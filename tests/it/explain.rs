//! `explain()` says what the bytes are: each binary field's description
//! is checked against the bytes the key actually holds.

use rowkey::{KeyPart, RowKey};

#[derive(KeyPart, Debug, Clone, Copy, PartialEq)]
struct Token([u8; 4]);

#[derive(RowKey, Debug, PartialEq)]
struct Conv {
    unsigned: u64,
    signed: i64,
    token: Token,
    maybe: Option<u32>,
}

#[test]
fn binary_fields_are_described_as_stored() {
    let key = Conv {
        unsigned: 7,
        signed: 7,
        token: Token(*b"abcd"),
        maybe: Some(7),
    }
    .to_key()
    .unwrap();
    // Unsigned: plain big-endian. Signed: the sign bit flipped. Parts:
    // their own bytes. Option: a tag, then the value.
    assert_eq!(&key[..8], &7u64.to_be_bytes());
    assert_eq!(&key[8..16], &(7u64 | 1 << 63).to_be_bytes());
    assert_eq!(&key[16..20], b"abcd");
    assert_eq!(&key[20..], &[1, 0, 0, 0, 7]);
    let text = Conv::layout().explain();
    assert!(text.contains("u64 as binary (big-endian)"), "{text}");
    assert!(
        !text.contains("u64 as binary (big-endian, sign bit flipped)"),
        "{text}"
    );
    assert!(
        text.contains("i64 as binary (big-endian, sign bit flipped)"),
        "{text}"
    );
    assert!(text.contains("Token as its KeyPart bytes"), "{text}");
    assert!(
        text.contains("Option<u32> as binary (big-endian)"),
        "{text}"
    );
}

/// A salted key: a device, a metric and newest-first time.
#[derive(RowKey, Debug, PartialEq)]
struct Reading {
    #[salt(buckets = 4, binary)]
    #[pad(width = 6)]
    device: String,
    metric: u8,
    #[desc_ts]
    at_ms: i64,
}

/// An unsalted key.
#[derive(RowKey, Debug, PartialEq)]
struct Log {
    day: u32,
    seq: u32,
}

#[test]
fn plans_say_what_they_read() {
    let explain =
        |plan: rowkey::scan::ScanPlan<{ Reading::MAX_LEN + 1 }>| plan.explain().to_string();
    // Every bucket read whole, filtered: the cost a free first field has.
    let free = Reading::scan().device.any().metric.eq(3).plan().unwrap();
    let cost = free.explain();
    assert!(cost.reads_whole_buckets() && cost.is_filtered());
    assert_eq!(
        (cost.ranges(), cost.buckets_read(), cost.limit()),
        (4, 4, None)
    );
    assert!(
        explain(free).starts_with("4 ranges, one in each of 4 salt buckets\nreads every row of those 4 buckets, keeping the rows whose key matches a pattern"),
    );
    // One device: one bucket, one narrow range, no filter.
    let one = Reading::scan().device.eq("dev-1").plan().unwrap();
    let cost = one.explain();
    assert!(!cost.reads_whole_buckets() && !cost.is_filtered());
    let bucket = one.ranges().next().unwrap().start()[0];
    assert_eq!(
        explain(one),
        format!("1 range, in salt bucket {bucket} of 4")
    );
    // Two devices, newest 10 over both: merged after the lists.
    let latest = Reading::scan()
        .device
        .is_in(["dev-1", "dev-2"])
        .metric
        .eq(1)
        .at_ms
        .latest(10)
        .unwrap();
    let text = explain(latest.clone());
    assert!(text.starts_with("2 ranges, "), "{text}");
    assert!(
        text.contains(&format!(
            "\nrows merged by their bytes from byte {} (the fields after the IN-lists)",
            latest.merge_offset()
        )),
        "{text}"
    );
    assert!(
        text.ends_with("\nat most 10 rows (at most 10 from each range, then merged)"),
        "{text}"
    );
    // Unsalted: the whole table, backwards, limited.
    let all = Log::scan().plan().unwrap().reversed().with_limit(1);
    assert_eq!(
        all.explain().to_string(),
        "1 range, read last key first\nreads every row of the table\nat most 1 row"
    );
    let day = Log::scan().day.between(1, 5).unwrap().reversed();
    assert_eq!(day.explain().to_string(), "1 range, read last key first");
    // Nothing to read.
    let none = Log::scan().day.is_in(Vec::<u32>::new()).plan().unwrap();
    assert_eq!(none.explain().to_string(), "no range: reads nothing");
    assert_eq!(none.explain().buckets_read(), 0);
}
