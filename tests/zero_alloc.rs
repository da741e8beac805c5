//! Proof that encoding and borrowed decoding allocate nothing: a global
//! allocator counts allocations made by the current thread.

use rowkey::store::Record as _;
use rowkey::{KeyDisplay, KeyPart, Record, RowKey};
use rowkey_fixtures::alloc::{allocations, Counting};
use rowkey_fixtures::{BucketedCall as CallRecord, Spend};

// A test binary of its own, not a module of `tests/it/`: a global
// allocator is one per binary, so there it would sit under every test of
// the facade, and the proofs here are best made in a process where no
// other test runs (the counts are per thread, but the harness and other
// tests' threads would share the allocator, its process-wide counters and
// its cost).
#[global_allocator]
static GLOBAL: Counting = Counting;

/// Escaped, reversed and descending fields: encoding still writes in place.
#[derive(RowKey, Debug, PartialEq)]
struct Site<'a> {
    #[max_len(32)]
    #[reverse(segments = ".")]
    host: String,
    #[desc]
    #[max_len(8)]
    tag: String,
    #[desc]
    n: Option<i32>,
    #[max_len(64)]
    path: &'a str,
}

/// A record's key with a `String` field, which `Record::key` clones.
#[derive(RowKey, Debug, PartialEq)]
struct SiteKey {
    #[max_len(32)]
    #[reverse(segments = ".")]
    host: String,
    #[desc]
    #[max_len(8)]
    tag: String,
}

#[derive(Record, Debug, PartialEq)]
#[record(key = SiteKey, family = "d")]
struct SiteRecord {
    tag: String,
    hits: u64,
    host: String,
}

#[derive(KeyPart, Debug, Clone, Copy, PartialEq)]
enum Quarter {
    Q1,
    Q2,
    Q3,
    Q4,
}

/// Salted with groups: the bucket is hashed and written in place.
#[derive(RowKey, Debug, PartialEq)]
struct Ledger<'a> {
    #[salt(buckets = 8, group_by = quarter, per_group = 2)]
    #[pad(width = 10, fill = 0x01, align = left)]
    user: &'a str,
    quarter: Quarter,
    #[desc_ts]
    at_ms: i64,
}

/// An md5 hash prefix and Java/Phoenix salts.
#[derive(RowKey, Debug, PartialEq)]
struct Profile<'a> {
    #[hash_prefix(len = 6)]
    #[max_len(32)]
    uid: &'a str,
}

#[derive(RowKey, Debug, PartialEq)]
struct JavaSalted<'a> {
    #[salt(buckets = 16, hash = java)]
    #[max_len(32)]
    uid: &'a str,
}

#[derive(RowKey, Debug, PartialEq)]
struct PhoenixSalted<'a> {
    #[salt(buckets = 16, hash = phoenix)]
    #[max_len(32)]
    uid: &'a str,
}

#[test]
fn salted_and_prefixed_keys_allocate_nothing() {
    let ledger = Ledger {
        user: "zhangsan",
        quarter: Quarter::Q4,
        at_ms: 5,
    };
    let (key, count) = allocations(|| ledger.to_key().unwrap());
    assert_eq!(count, 0, "Ledger::to_key");
    let (back, count) = allocations(|| Ledger::decode(&key).unwrap());
    assert_eq!(
        (back, count),
        (ledger, 0),
        "Ledger::decode verifies the bucket"
    );

    let p = Profile { uid: "foo0001" };
    let (key, count) = allocations(|| p.to_key().unwrap());
    assert_eq!(count, 0, "Profile::to_key (md5 prefix)");
    let (back, count) = allocations(|| Profile::decode(&key).unwrap());
    assert_eq!((back, count), (p, 0), "Profile::decode verifies the prefix");

    let j = JavaSalted { uid: "张三" };
    let (key, count) = allocations(|| j.to_key().unwrap());
    assert_eq!(count, 0, "JavaSalted::to_key");
    assert_eq!(allocations(|| JavaSalted::decode(&key).unwrap()).1, 0);

    let ph = PhoenixSalted { uid: "foo" };
    let (key, count) = allocations(|| ph.to_key().unwrap());
    assert_eq!(count, 0, "PhoenixSalted::to_key");
    assert_eq!(allocations(|| PhoenixSalted::decode(&key).unwrap()).1, 0);
}

#[test]
fn encode_and_borrowed_decode_allocate_nothing() {
    let spend = Spend {
        month: 202112,
        user: "zhangsan",
        at_ms: 1_638_316_800_000,
    };
    let call = CallRecord {
        bucket: 2,
        tel: 13812345678,
        time: 20211201120000,
    };
    let site = Site {
        host: "www.iteblog.com".to_string(),
        tag: "a\0b".to_string(),
        path: "/2021/12/index.html",
        n: Some(-5),
    };
    let mut out = [0u8; 256];

    let (n, count) = allocations(|| spend.encode_into(&mut out).unwrap());
    assert_eq!((n, count), (24, 0), "Spend::encode_into");
    let (key, count) = allocations(|| spend.to_key().unwrap());
    assert_eq!(count, 0, "Spend::to_key");
    let (back, count) = allocations(|| Spend::decode(&key).unwrap());
    assert_eq!(count, 0, "Spend::decode borrows");
    assert_eq!(back, spend);

    let (key, count) = allocations(|| call.to_key().unwrap());
    assert_eq!(count, 0, "CallRecord::to_key");
    let (back, count) = allocations(|| CallRecord::decode(&key).unwrap());
    assert_eq!(count, 0, "CallRecord::decode");
    assert_eq!(back, call);

    let (key, count) = allocations(|| site.to_key().unwrap());
    assert_eq!(count, 0, "Site::to_key (escaped, reversed, desc)");
    let (_, count) = allocations(|| site.encoded_len());
    assert_eq!(count, 0, "Site::encoded_len");
    assert_eq!(Site::decode(&key).unwrap(), site);

    // A record writes its key from its own fields: no clone of them.
    let record = SiteRecord {
        tag: "a\0b".to_string(),
        hits: 3,
        host: "www.iteblog.com".to_string(),
    };
    let (key, count) = allocations(|| record.to_key().unwrap());
    assert_eq!(count, 0, "Record::to_key");
    assert_eq!(key, record.key().to_key().unwrap());

    // Errors are built without allocating too.
    let long = Spend {
        user: "far_too_long_for_ten",
        ..spend
    };
    let (err, count) = allocations(|| long.encode_into(&mut out).unwrap_err());
    assert_eq!(count, 0, "EncodeError");
    let (err2, count) = allocations(|| Spend::decode(&key[..3]).unwrap_err());
    assert_eq!(count, 0, "DecodeError");
    let _ = (err, err2, KeyDisplay(&key));
}

#[test]
fn building_ranges_and_iterating_plans_allocate_nothing() {
    let (plan, count) = allocations(|| Ledger::scan().plan().unwrap());
    assert_eq!(count, 0, "Ledger::scan().plan()");
    let (n, count) = allocations(|| {
        plan.ranges()
            .map(|r| r.start().len() + r.stop().map_or(0, <[u8]>::len))
            .sum::<usize>()
    });
    assert!(n > 0);
    assert_eq!(count, 0, "iterating 8 bucket ranges");
    let (one, count) = allocations(|| {
        Ledger::scan()
            .user
            .eq("zhangsan")
            .quarter
            .eq(Quarter::Q4)
            .at_ms
            .between(0, 1_000)
            .unwrap()
    });
    assert_eq!((one.len(), count), (1, 0), "a time window in one bucket");
    let (key, count) = allocations(|| one.range(one.buckets().start).unwrap());
    assert_eq!(count, 0, "ScanPlan::range");
    let (_, count) = allocations(|| plan.after(key.start()));
    assert_eq!(count, 0, "ScanPlan::after (keyset resume)");
    let (_, count) = allocations(|| {
        Spend::scan()
            .month
            .range(202101..=202112)
            .map(|p| p.single())
    });
    assert_eq!(count, 0, "a range on an unsalted key");
}
