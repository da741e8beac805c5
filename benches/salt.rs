//! What salting costs: the seed's salted call record (bucket computed by
//! the Java formula) against the `format!` + `String.hashCode` way the
//! seed's Java writes it, and a salted ledger key against the same key
//! unsalted and against Phoenix-style salting.
//!
//! Run: `cargo bench --bench salt`. Compare ratios, not absolute times.

use criterion::{criterion_group, criterion_main, Criterion};
use rowkey::salt::{java_abs_mod, java_hash_code};
use rowkey::RowKey;
use std::hint::black_box;

/// `String.hashCode` of `n` as `width` zero-padded digits, without
/// building the string.
fn digits_hash(mut n: u64, width: u32) -> i32 {
    let mut digits = [0u8; 20];
    for d in digits[..width as usize].iter_mut().rev() {
        *d = b'0' + (n % 10) as u8;
        n /= 10;
    }
    digits[..width as usize]
        .iter()
        .fold(0i32, |h, &d| h.wrapping_mul(31).wrapping_add(i32::from(d)))
}

/// The seed formula, allocation-free.
fn call_bucket(r: &CallRecord) -> u32 {
    java_abs_mod(
        digits_hash(r.tel % 10_000, 4) ^ digits_hash(r.time / 100_000_000, 6),
        6,
    )
}

#[derive(RowKey)]
#[rowkey(separator = "_")]
struct CallRecord {
    #[salt(buckets = 6, hash = call_bucket)]
    #[text(width = 11)]
    tel: u64,
    #[salt]
    #[text(width = 14)]
    time: u64,
}

#[derive(RowKey)]
struct Ledger<'a> {
    #[salt(buckets = 120, group_by = month, range = 1..=12, per_group = 10)]
    #[pad(width = 10, fill = 0x01, align = left)]
    user: &'a str,
    #[text(width = 2)]
    month: u8,
    #[desc_ts]
    at_ms: i64,
}

#[derive(RowKey)]
struct LedgerUnsalted<'a> {
    #[pad(width = 10, fill = 0x01, align = left)]
    user: &'a str,
    #[text(width = 2)]
    month: u8,
    #[desc_ts]
    at_ms: i64,
}

#[derive(RowKey)]
struct LedgerPhoenix<'a> {
    #[salt(buckets = 120, hash = phoenix)]
    #[pad(width = 10, fill = 0x01, align = left)]
    user: &'a str,
    #[text(width = 2)]
    month: u8,
    #[desc_ts]
    at_ms: i64,
}

fn call_record(c: &mut Criterion) {
    let r = CallRecord {
        tel: 13812345678,
        time: 20211201120000,
    };
    let mut g = c.benchmark_group("salted_call_record_encode");
    g.bench_function("rowkey to_key", |b| {
        b.iter(|| black_box(&r).to_key().unwrap())
    });
    g.bench_function("format! + hashCode (the seed's Java way)", |b| {
        b.iter(|| {
            let r = black_box(&r);
            let tel = format!("{:011}", r.tel);
            let time = format!("{:014}", r.time);
            let h = java_hash_code(&tel[7..]) ^ java_hash_code(&time[..6]);
            format!("{}_{tel}_{time}", java_abs_mod(h, 6)).into_bytes()
        })
    });
    g.finish();
    let key = r.to_key().unwrap();
    let mut g = c.benchmark_group("salted_call_record_decode");
    g.bench_function("rowkey decode (bucket verified)", |b| {
        b.iter(|| CallRecord::decode(black_box(&key)).unwrap())
    });
    g.finish();
}

fn ledger(c: &mut Criterion) {
    let (user, month, at_ms) = ("zhangsan", 12, 1_638_316_800_000);
    let mut g = c.benchmark_group("ledger_encode");
    g.bench_function("unsalted", |b| {
        let k = LedgerUnsalted { user, month, at_ms };
        b.iter(|| black_box(&k).to_key().unwrap())
    });
    g.bench_function("salted, groups (default hash)", |b| {
        let k = Ledger { user, month, at_ms };
        b.iter(|| black_box(&k).to_key().unwrap())
    });
    g.bench_function("salted (phoenix hash)", |b| {
        let k = LedgerPhoenix { user, month, at_ms };
        b.iter(|| black_box(&k).to_key().unwrap())
    });
    g.finish();
}

criterion_group!(benches, call_record, ledger);
criterion_main!(benches);
