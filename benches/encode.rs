//! Encode and decode speed of derived keys against the ways people write
//! keys today: a hand-written byte encoder (the fastest reasonable code),
//! `format!` (the common one), and memcomparable (a peer order-preserving
//! encoder, via serde), all in one process.
//!
//! Run: `cargo bench --bench encode`. Compare ratios, not absolute times.
//! The layouts are defined here, as in a user's crate; the hand-written
//! codecs are `rowkey_fixtures::hand`. Instruction counts, which are
//! steadier here, come from `bench-tools/callgrind.sh`.

use criterion::{criterion_group, criterion_main, Criterion};
use rowkey::RowKey;
use rowkey_fixtures::hand::{spend_by_hand, spend_decode_by_hand};
use std::hint::black_box;

#[derive(RowKey, Debug, PartialEq)]
struct Spend<'a> {
    #[text(width = 6)]
    month: u32,
    #[pad(width = 10, fill = 0x01, align = left)]
    user: &'a str,
    #[desc_ts]
    at_ms: i64,
}

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

#[derive(RowKey, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct Event {
    tenant: u32,
    #[max_len(32)]
    name: String,
    #[desc]
    at: i64,
    seq: u64,
}

fn spend(c: &mut Criterion) {
    let s = Spend {
        month: 202112,
        user: "zhangsan",
        at_ms: 1_638_316_800_000,
    };
    let mut g = c.benchmark_group("spend_encode");
    g.bench_function("rowkey encode_into", |b| {
        let mut out = [0u8; 24];
        b.iter(|| black_box(&s).encode_into(black_box(&mut out)).unwrap())
    });
    g.bench_function("rowkey to_key", |b| {
        b.iter(|| black_box(&s).to_key().unwrap())
    });
    g.bench_function("hand-written", |b| {
        let mut out = [0u8; 24];
        b.iter(|| {
            let s = black_box(&s);
            spend_by_hand(s.month, s.user, s.at_ms, black_box(&mut out)).unwrap()
        })
    });
    g.bench_function("format!", |b| {
        b.iter(|| {
            let s = black_box(&s);
            let mut k = format!(
                "{:06}{}{}",
                s.month,
                "\x01".repeat(10 - s.user.len()),
                s.user
            )
            .into_bytes();
            k.extend_from_slice(&(i64::MAX - s.at_ms).to_be_bytes());
            k
        })
    });
    g.finish();

    let key = s.to_key().unwrap();
    let mut g = c.benchmark_group("spend_decode");
    g.bench_function("rowkey decode (borrowed)", |b| {
        b.iter(|| Spend::decode(black_box(&key)).unwrap())
    });
    g.bench_function("hand-written", |b| {
        b.iter(|| spend_decode_by_hand(black_box(&key)).unwrap())
    });
    g.finish();
}

fn call_record(c: &mut Criterion) {
    let r = CallRecord {
        bucket: 2,
        tel: 13812345678,
        time: 20211201120000,
    };
    let mut g = c.benchmark_group("call_record_encode");
    g.bench_function("rowkey to_key", |b| {
        b.iter(|| black_box(&r).to_key().unwrap())
    });
    g.bench_function("format! (the seed's Java way)", |b| {
        b.iter(|| {
            let r = black_box(&r);
            format!("{}_{:011}_{:014}", r.bucket, r.tel, r.time).into_bytes()
        })
    });
    g.finish();
    let key = r.to_key().unwrap();
    let mut g = c.benchmark_group("call_record_decode");
    g.bench_function("rowkey decode", |b| {
        b.iter(|| CallRecord::decode(black_box(&key)).unwrap())
    });
    g.bench_function("str split + parse", |b| {
        b.iter(|| {
            let s = std::str::from_utf8(black_box(&key)).unwrap();
            let mut it = s.split('_');
            let bucket: u8 = it.next().unwrap().parse().unwrap();
            let tel: u64 = it.next().unwrap().parse().unwrap();
            let time: u64 = it.next().unwrap().parse().unwrap();
            (bucket, tel, time)
        })
    });
    g.finish();
}

fn event(c: &mut Criterion) {
    let e = Event {
        tenant: 7,
        name: "checkout\0completed".into(),
        at: 1_638_316_800_000,
        seq: 42,
    };
    let mut g = c.benchmark_group("event_encode");
    g.bench_function("rowkey to_key", |b| {
        b.iter(|| black_box(&e).to_key().unwrap())
    });
    g.bench_function("rowkey to_vec", |b| {
        b.iter(|| black_box(&e).to_vec().unwrap())
    });
    g.bench_function("memcomparable to_vec", |b| {
        b.iter(|| memcomparable::to_vec(black_box(&e)).unwrap())
    });
    g.finish();
    let key = e.to_vec().unwrap();
    let mc = memcomparable::to_vec(&e).unwrap();
    let mut g = c.benchmark_group("event_decode");
    g.bench_function("rowkey decode", |b| {
        b.iter(|| Event::decode(black_box(&key)).unwrap())
    });
    g.bench_function("memcomparable from_slice", |b| {
        b.iter(|| memcomparable::from_slice::<Event>(black_box(&mc)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, spend, call_record, event);
criterion_main!(benches);
