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
        explain(free).starts_with("4 ranges, one in each of 4 salt buckets\nthe salt hashes device, and device is not fixed: fix it (eq) or list its values (is_in) to read 1 bucket instead of 4\nreads every row of those 4 buckets, keeping the rows whose key matches a pattern"),
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

/// An OpenTSDB-style point: the salt hashes the host and region tags.
#[derive(RowKey, Debug, PartialEq)]
struct Point<'a> {
    metric: u32,
    #[salt(buckets = 16, binary)]
    #[pad(width = 12)]
    host: &'a str,
    #[salt]
    #[pad(width = 8)]
    region: &'a str,
    #[desc_ts]
    at_ms: i64,
}

/// Issue 48: forty hosts over two hours became 1,280 ranges because the
/// region (a salt input) was free, and `explain()` said only "1280
/// ranges, in 16 of 16 salt buckets". It names each factor and what
/// would narrow the salt.
#[test]
fn plans_say_which_fields_multiply_their_ranges() {
    let hosts: Vec<String> = (0..40).map(|i| format!("host-{i:02}")).collect();
    let hosts = || hosts.iter().map(String::as_str);
    let (from, to) = (1_767_225_600_000, 1_767_225_600_000 + 2 * 3_600_000);
    // The region never reached: every bucket a combination.
    let free = Point::scan()
        .metric
        .is_in([1, 2])
        .host
        .is_in(hosts())
        .plan()
        .unwrap();
    let cost = free.explain();
    assert_eq!(
        (cost.ranges(), cost.buckets_each(), cost.in_lists()),
        (1280, 16, &[("metric", 2), ("host", 40)][..])
    );
    assert_eq!(cost.unfixed_salt_inputs().collect::<Vec<_>>(), ["region"]);
    let text = cost.to_string();
    assert!(
        text.starts_with(
            "1280 ranges, in 16 of 16 salt buckets\n\
             ranges: 2 values of metric (is_in) x 40 values of host (is_in) x 16 salt buckets each\n\
             the salt hashes host and region, and region is not fixed: fix it (eq) or list its \
             values (is_in) to read 1 bucket a combination instead of 16\n"
        ),
        "{text}"
    );
    // A range on the region does not fix it either.
    let ranged = Point::scan()
        .metric
        .eq(1)
        .host
        .is_in(hosts())
        .region
        .between("eu", "ev")
        .unwrap();
    let text = ranged.explain().to_string();
    assert!(
        text.starts_with(
            "640 ranges, in 16 of 16 salt buckets\n\
             ranges: 40 values of host (is_in) x 16 salt buckets each\n\
             the salt hashes host and region, and region is not fixed"
        ),
        "{text}"
    );
    // Listing the regions, as the message says: one bucket a combination.
    let regions = ["eu-west", "eu-north", "us-east", "us-west", "ap-south"];
    let listed = Point::scan()
        .metric
        .is_in([1, 2])
        .host
        .is_in(hosts())
        .region
        .is_in(regions)
        .at_ms
        .between(from, to)
        .unwrap();
    let cost = listed.explain();
    assert_eq!((cost.ranges(), cost.buckets_each()), (400, 1));
    assert_eq!(cost.unfixed_salt_inputs().count(), 0);
    let text = cost.to_string();
    assert!(
        text.contains(
            "\nranges: 2 values of metric (is_in) x 40 values of host (is_in) x 5 values of region (is_in)\n"
        ),
        "{text}"
    );
    assert!(!text.contains("the salt hashes"), "{text}");
    // A host free and the region fixed: both inputs named as the salt's,
    // the free one as the one to fix.
    let text = Point::scan()
        .metric
        .eq(1)
        .host
        .any()
        .region
        .eq("eu-west")
        .plan()
        .unwrap()
        .explain()
        .to_string();
    assert!(
        text.contains("\nthe salt hashes host and region, and host is not fixed: fix it (eq)"),
        "{text}"
    );
}

#[test]
fn a_countable_layout_says_how_many_keys_it_holds() {
    use rowkey_fixtures::layouts::{SecondQualifier, TsdbRow};
    // OpenTSDB's second qualifier: 16 bits, so a row holds at most
    // 65,536 cells under it.
    let text = SecondQualifier::layout().explain();
    assert!(
        text.contains("at most 65,536 distinct keys (as a qualifier: the most cells a row holds)"),
        "{text}"
    );
    // Two u32s: 2^64 keys, said as a power of two.
    assert!(Log::layout()
        .explain()
        .contains("at most 2^64 distinct keys"));
    // A variable width bounds nothing, and says nothing.
    let text = TsdbRow::layout().explain();
    assert!(!text.contains("distinct keys"), "{text}");
}
