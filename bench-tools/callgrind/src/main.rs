//! One benchmark case per process, for callgrind.
//!
//! ```text
//! rowkey-callgrind list              # every case name, one a line
//! rowkey-callgrind check             # hand-written bytes == rowkey bytes, round trips
//! rowkey-callgrind <case> <iters>    # run one case `iters` times
//! ```
//!
//! Every case runs its operation inside `bench_loop` / `bench_merge` (never
//! inlined), so callgrind can collect only there
//! (`--toggle-collect='*bench_*'`); `../callgrind.sh` also runs each case at
//! two iteration counts and divides the difference, so any constant cost
//! (setup, the merge's heap start) cancels.
//!
//! The layouts are the ones of `benches/encode.rs` (defined here, as a user
//! defines them in their own crate); the hand-written codecs are
//! `rowkey_fixtures::hand`, and write the same bytes as rowkey (`check`
//! proves it).

use rowkey::scan::merge_sorted;
use rowkey::store::Record as _;
use rowkey::{Record, RowKey};
use rowkey_fixtures::hand::*;
use std::hint::black_box;

// ---------------------------------------------------------------- layouts

#[derive(RowKey, Debug, PartialEq)]
struct Spend<'a> {
    #[text(width = 6)]
    month: u32,
    #[pad(width = 10, fill = 0x01, align = left)]
    user: &'a str,
    #[desc_ts]
    at_ms: i64,
}

/// Spend's key owned, for a record (a record's key borrows nothing).
#[derive(RowKey, Debug, PartialEq)]
struct SpendKey {
    #[text(width = 6)]
    month: u32,
    #[pad(width = 10, fill = 0x01, align = left)]
    user: String,
    #[desc_ts]
    at_ms: i64,
}

/// A record keyed by `SpendKey`: its key fields, and a cell.
#[derive(Record, Debug, PartialEq)]
#[record(key = SpendKey, family = "d")]
struct SpendRow {
    month: u32,
    user: String,
    at_ms: i64,
    cents: i64,
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

/// The call record with the bucket computed by rowkey's default salt hash
/// over the tel and time digits.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(separator = "_")]
struct SaltedCall {
    #[salt(buckets = 6)]
    #[text(width = 11)]
    tel: u64,
    #[salt]
    #[text(width = 14)]
    time: u64,
}

/// A record keyed by `Event`, its fields in another order, and a cell.
#[derive(Record, Debug, PartialEq)]
#[record(key = Event, family = "d")]
struct EventRow {
    seq: u64,
    name: String,
    payload: u32,
    at: i64,
    tenant: u32,
}

#[derive(RowKey, Debug, PartialEq)]
struct Event {
    tenant: u32,
    #[max_len(32)]
    name: String,
    #[desc]
    at: i64,
    seq: u64,
}

// Plain structs with the same fields, for the serde/storekey encoders
// (which write their own bytes, not rowkey's).

#[derive(serde::Serialize, storekey::Encode)]
struct PlainSpend<'a> {
    month: u32,
    user: &'a str,
    at_ms: i64,
}

#[derive(serde::Serialize, storekey::Encode)]
struct PlainCall {
    bucket: u8,
    tel: u64,
    time: u64,
}

#[derive(
    Debug, PartialEq, serde::Serialize, serde::Deserialize, storekey::Encode, storekey::Decode,
)]
struct PlainEvent {
    tenant: u32,
    name: String,
    at: i64,
    seq: u64,
}

macro_rules! u64_key {
    ($name:ident, $n:literal, $($f:ident),+) => {
        #[derive(RowKey, Debug, PartialEq)]
        struct $name {
            $($f: u64),+
        }

        impl $name {
            fn sample() -> Self {
                let mut v = 0x0123_4567_89AB_CDEFu64;
                $(let $f = v; v = v.rotate_left(7).wrapping_add(0x9E37_79B9);)+
                let _ = v;
                $name { $($f),+ }
            }

            /// `to_be_bytes` copies.
            fn by_hand(&self) -> [u8; $n * 8] {
                let mut out = [0u8; $n * 8];
                let mut i = 0;
                $(
                    out[i..i + 8].copy_from_slice(&self.$f.to_be_bytes());
                    i += 8;
                )+
                let _ = i;
                out
            }

            fn decode_by_hand(key: &[u8]) -> Option<Self> {
                if key.len() != $n * 8 {
                    return None;
                }
                let mut chunks = key.chunks_exact(8);
                Some($name {
                    $($f: u64::from_be_bytes(chunks.next()?.try_into().ok()?)),+
                })
            }
        }
    };
}

u64_key!(U64x2, 2, f0, f1);
u64_key!(U64x4, 4, f0, f1, f2, f3);
u64_key!(U64x8, 8, f0, f1, f2, f3, f4, f5, f6, f7);
u64_key!(U64x16, 16, f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15);

// ----------------------------------------------------------------- inputs

fn spend() -> Spend<'static> {
    Spend {
        month: 202112,
        user: "zhangsan",
        at_ms: 1_638_316_800_000,
    }
}

fn spend_row() -> SpendRow {
    let s = spend();
    SpendRow {
        month: s.month,
        user: s.user.to_owned(),
        at_ms: s.at_ms,
        cents: 1250,
    }
}

fn call() -> CallRecord {
    CallRecord {
        bucket: 2,
        tel: 13812345678,
        time: 20211201120000,
    }
}

fn salted_call() -> SaltedCall {
    SaltedCall {
        tel: 13812345678,
        time: 20211201120000,
    }
}

fn event() -> Event {
    Event {
        tenant: 7,
        name: "checkout\0completed".into(),
        at: 1_638_316_800_000,
        seq: 42,
    }
}

fn event_row() -> EventRow {
    let e = event();
    EventRow {
        seq: e.seq,
        name: e.name,
        payload: 3,
        at: e.at,
        tenant: e.tenant,
    }
}

fn plain_spend() -> PlainSpend<'static> {
    let s = spend();
    PlainSpend {
        month: s.month,
        user: s.user,
        at_ms: s.at_ms,
    }
}

fn plain_call() -> PlainCall {
    let c = call();
    PlainCall {
        bucket: c.bucket,
        tel: c.tel,
        time: c.time,
    }
}

fn plain_event() -> PlainEvent {
    let e = event();
    PlainEvent {
        tenant: e.tenant,
        name: e.name,
        at: e.at,
        seq: e.seq,
    }
}

fn spend_format(s: &Spend) -> Vec<u8> {
    let mut k = format!(
        "{:06}{}{}",
        s.month,
        "\x01".repeat(10 - s.user.len()),
        s.user
    )
    .into_bytes();
    k.extend_from_slice(&(i64::MAX - s.at_ms).to_be_bytes());
    k
}

fn call_format(r: &CallRecord) -> Vec<u8> {
    format!("{}_{:011}_{:014}", r.bucket, r.tel, r.time).into_bytes()
}

/// Event as users hand-roll it today: fixed-width decimals and a separator,
/// the reversed time as the flipped, inverted `u64`. Not rowkey's bytes (a
/// text key, and a name holding `|` breaks its order); the same fields at
/// the same job, for the cost of the way it is usually done.
fn event_format(e: &Event) -> Vec<u8> {
    let reversed = !((e.at as u64) ^ (1 << 63));
    format!("{:010}|{}|{:020}|{:020}", e.tenant, e.name, reversed, e.seq).into_bytes()
}

/// Reads [`event_format`]'s keys back (names without `|`).
fn event_split_parse(key: &[u8]) -> (u32, String, i64, u64) {
    let s = std::str::from_utf8(key).unwrap();
    let mut it = s.split('|');
    let tenant: u32 = it.next().unwrap().parse().unwrap();
    let name = it.next().unwrap().to_owned();
    let reversed: u64 = it.next().unwrap().parse().unwrap();
    let seq: u64 = it.next().unwrap().parse().unwrap();
    (tenant, name, ((!reversed) ^ (1 << 63)) as i64, seq)
}

fn call_split_parse(key: &[u8]) -> (u8, u64, u64) {
    let s = std::str::from_utf8(key).unwrap();
    let mut it = s.split('_');
    let bucket: u8 = it.next().unwrap().parse().unwrap();
    let tel: u64 = it.next().unwrap().parse().unwrap();
    let time: u64 = it.next().unwrap().parse().unwrap();
    (bucket, tel, time)
}

// ----------------------------------------------------------------- loops

/// The measured loop: callgrind collects inside this function only.
#[inline(never)]
fn bench_loop<T>(iters: u64, mut op: impl FnMut() -> T) {
    for _ in 0..iters {
        black_box(op());
    }
}

/// Merges `sources` (each sorted, key = 1 salt byte + logical key) and
/// keeps every row (no free per row); callgrind collects inside only.
#[inline(never)]
fn bench_merge(sources: Vec<Vec<Vec<u8>>>, out: &mut Vec<Vec<u8>>) {
    for row in merge_sorted(sources, 1, None) {
        out.push(black_box(row));
    }
}

/// `rows` keys over `n` sources: row `i` goes to source `i % n`, its key
/// `[bucket][tenant u32][id u64]` (13 bytes), so the merge interleaves
/// every source.
fn merge_case(n: usize, rows: u64) {
    let mut sources: Vec<Vec<Vec<u8>>> = vec![Vec::new(); n];
    for i in 0..rows {
        let s = (i % n as u64) as usize;
        let mut key = Vec::with_capacity(13);
        key.push(s as u8);
        key.extend_from_slice(&7u32.to_be_bytes());
        key.extend_from_slice(&i.to_be_bytes());
        sources[s].push(key);
    }
    let mut out = Vec::with_capacity(rows as usize);
    bench_merge(black_box(sources), &mut out);
    assert_eq!(out.len() as u64, rows);
    assert!(out.windows(2).all(|w| w[0][1..] < w[1][1..]));
}

macro_rules! u64_cases {
    ($case:expr, $iters:expr, $($prefix:literal => $ty:ident),+) => {
        match $case {
            $(
                concat!($prefix, "/encode/rowkey") => {
                    let k = $ty::sample();
                    bench_loop($iters, || black_box(&k).to_key().unwrap());
                    true
                }
                concat!($prefix, "/encode/hand") => {
                    let k = $ty::sample();
                    bench_loop($iters, || black_box(&k).by_hand());
                    true
                }
                concat!($prefix, "/decode/rowkey") => {
                    let key = $ty::sample().to_key().unwrap();
                    bench_loop($iters, || $ty::decode(black_box(&key)).unwrap());
                    true
                }
                concat!($prefix, "/decode/hand") => {
                    let key = $ty::sample().to_key().unwrap();
                    bench_loop($iters, || $ty::decode_by_hand(black_box(&key)).unwrap());
                    true
                }
            )+
            _ => false,
        }
    };
}

/// Every case, in report order: `layout/op/way`.
const CASES: &[&str] = &[
    "spend/encode/rowkey",
    "spend/encode/hand",
    "spend/encode_into/rowkey",
    "spend/encode_into/hand",
    "spend/encode_into_slice/rowkey",
    "spend/encode_into_slice/hand",
    "spend/to_vec/rowkey",
    "spend/to_vec/hand",
    "spend/record_key/rowkey",
    "spend/record_key/hand",
    "spend/encode/format",
    "spend/encode/memcomparable",
    "spend/encode/storekey",
    "call/encode/rowkey",
    "call/encode/hand",
    "call/encode/format",
    "call/encode/memcomparable",
    "call/encode/storekey",
    "salted_call/encode/rowkey",
    "salted_call/encode/hand",
    "event/encode/rowkey",
    "event/encode/hand",
    "event/encode_into/rowkey",
    "event/encode_into/hand",
    "event/to_vec/rowkey",
    "event/to_vec/hand",
    "event/record_key/rowkey",
    "event/record_key/hand",
    "event/encode/format",
    "event/encode/memcomparable",
    "event/encode/storekey",
    "spend/decode/rowkey",
    "spend/decode/hand",
    "call/decode/rowkey",
    "call/decode/hand",
    "call/decode/format",
    "salted_call/decode/rowkey",
    "salted_call/decode/hand",
    "event/decode/rowkey",
    "event/decode/hand",
    "event/decode/format",
    "event/decode/memcomparable",
    "event/decode/storekey",
    "spend/scan/rowkey",
    "salted_call/scan/rowkey",
    "u64x2/encode/rowkey",
    "u64x2/encode/hand",
    "u64x2/decode/rowkey",
    "u64x2/decode/hand",
    "u64x4/encode/rowkey",
    "u64x4/encode/hand",
    "u64x4/decode/rowkey",
    "u64x4/decode/hand",
    "u64x8/encode/rowkey",
    "u64x8/encode/hand",
    "u64x8/decode/rowkey",
    "u64x8/decode/hand",
    "u64x16/encode/rowkey",
    "u64x16/encode/hand",
    "u64x16/decode/rowkey",
    "u64x16/decode/hand",
    "merge/6/rowkey",
    "merge/64/rowkey",
    "merge/256/rowkey",
];

fn run(case: &str, iters: u64) -> bool {
    match case {
        "spend/encode/rowkey" => {
            let s = spend();
            bench_loop(iters, || black_box(&s).to_key().unwrap());
        }
        // The hand-written encoder always writes into a caller's array.
        "spend/encode/hand" | "spend/encode_into/hand" => {
            let s = spend();
            bench_loop(iters, || {
                let s = black_box(&s);
                let mut out = [0u8; 24];
                spend_by_hand(s.month, s.user, s.at_ms, &mut out).unwrap();
                out
            });
        }
        "spend/encode_into/rowkey" => {
            let s = spend();
            bench_loop(iters, || {
                let mut out = [0u8; 24];
                black_box(&s).encode_into(&mut out).unwrap();
                out
            });
        }
        // Into a slice whose length the compiler does not know (a batch
        // buffer), as callers that reuse one pass it.
        "spend/encode_into_slice/rowkey" => {
            let s = spend();
            bench_loop(iters, || {
                let mut out = [0u8; 64];
                let len = black_box(&s).encode_into(black_box(&mut out[..])).unwrap();
                (out, len)
            });
        }
        "spend/encode_into_slice/hand" => {
            let s = spend();
            bench_loop(iters, || {
                let s = black_box(&s);
                let mut out = [0u8; 64];
                let slice = black_box(&mut out[..]);
                let buf: &mut [u8; 24] = (&mut slice[..24]).try_into().unwrap();
                spend_by_hand(s.month, s.user, s.at_ms, buf).unwrap();
                (out, 24)
            });
        }
        "spend/to_vec/rowkey" => {
            let s = spend();
            bench_loop(iters, || black_box(&s).to_vec().unwrap());
        }
        // Written on the stack, then copied into a `Vec` of its length:
        // the cheapest way by hand (a `vec![0; 24]` to write into costs
        // a zeroed allocation).
        "spend/to_vec/hand" => {
            let s = spend();
            bench_loop(iters, || {
                let s = black_box(&s);
                let mut out = [0u8; 24];
                spend_by_hand(s.month, s.user, s.at_ms, &mut out).unwrap();
                out.to_vec()
            });
        }
        "spend/record_key/rowkey" => {
            let r = spend_row();
            bench_loop(iters, || black_box(&r).to_key().unwrap());
        }
        "spend/record_key/hand" => {
            let r = spend_row();
            bench_loop(iters, || {
                let r = black_box(&r);
                let mut out = [0u8; 24];
                spend_by_hand(r.month, &r.user, r.at_ms, &mut out).unwrap();
                out
            });
        }
        "spend/encode/format" => {
            let s = spend();
            bench_loop(iters, || spend_format(black_box(&s)));
        }
        "spend/encode/memcomparable" => {
            let s = plain_spend();
            bench_loop(iters, || memcomparable::to_vec(black_box(&s)).unwrap());
        }
        "spend/encode/storekey" => {
            let s = plain_spend();
            bench_loop(iters, || storekey::encode_vec(black_box(&s)).unwrap());
        }
        "call/encode/rowkey" => {
            let r = call();
            bench_loop(iters, || black_box(&r).to_key().unwrap());
        }
        "call/encode/hand" => {
            let r = call();
            bench_loop(iters, || {
                let r = black_box(&r);
                let mut out = [0u8; 28];
                call_by_hand(r.bucket, r.tel, r.time, &mut out).unwrap();
                out
            });
        }
        "call/encode/format" => {
            let r = call();
            bench_loop(iters, || call_format(black_box(&r)));
        }
        "call/encode/memcomparable" => {
            let r = plain_call();
            bench_loop(iters, || memcomparable::to_vec(black_box(&r)).unwrap());
        }
        "call/encode/storekey" => {
            let r = plain_call();
            bench_loop(iters, || storekey::encode_vec(black_box(&r)).unwrap());
        }
        "salted_call/encode/rowkey" => {
            let r = salted_call();
            bench_loop(iters, || black_box(&r).to_key().unwrap());
        }
        "salted_call/encode/hand" => {
            let r = salted_call();
            bench_loop(iters, || {
                let r = black_box(&r);
                let mut out = [0u8; 28];
                salted_call_by_hand(r.tel, r.time, &mut out).unwrap();
                out
            });
        }
        "event/encode/rowkey" => {
            let e = event();
            bench_loop(iters, || black_box(&e).to_key().unwrap());
        }
        "event/encode_into/rowkey" => {
            let e = event();
            bench_loop(iters, || {
                let mut out = [0u8; EVENT_MAX];
                let n = black_box(&e).encode_into(&mut out).unwrap();
                (out, n)
            });
        }
        "event/to_vec/rowkey" => {
            let e = event();
            bench_loop(iters, || black_box(&e).to_vec().unwrap());
        }
        "event/to_vec/hand" => {
            let e = event();
            bench_loop(iters, || {
                let e = black_box(&e);
                let mut out = [0u8; EVENT_MAX];
                let n = event_by_hand(e.tenant, &e.name, e.at, e.seq, &mut out).unwrap();
                out[..n].to_vec()
            });
        }
        "event/record_key/rowkey" => {
            let r = event_row();
            bench_loop(iters, || black_box(&r).to_key().unwrap());
        }
        "event/record_key/hand" => {
            let r = event_row();
            bench_loop(iters, || {
                let r = black_box(&r);
                let mut out = [0u8; EVENT_MAX];
                let n = event_by_hand(r.tenant, &r.name, r.at, r.seq, &mut out).unwrap();
                (out, n)
            });
        }
        "event/encode/hand" | "event/encode_into/hand" => {
            let e = event();
            bench_loop(iters, || {
                let e = black_box(&e);
                let mut out = [0u8; EVENT_MAX];
                let n = event_by_hand(e.tenant, &e.name, e.at, e.seq, &mut out).unwrap();
                (out, n)
            });
        }
        "event/encode/format" => {
            let e = event();
            bench_loop(iters, || event_format(black_box(&e)));
        }
        "event/encode/memcomparable" => {
            let e = plain_event();
            bench_loop(iters, || memcomparable::to_vec(black_box(&e)).unwrap());
        }
        "event/encode/storekey" => {
            let e = plain_event();
            bench_loop(iters, || storekey::encode_vec(black_box(&e)).unwrap());
        }
        "spend/decode/rowkey" => {
            let key = spend().to_key().unwrap();
            bench_loop(iters, || Spend::decode(black_box(&key)).unwrap());
        }
        "spend/decode/hand" => {
            let key = spend().to_key().unwrap();
            bench_loop(iters, || spend_decode_by_hand(black_box(&key)).unwrap());
        }
        "call/decode/rowkey" => {
            let key = call().to_key().unwrap();
            bench_loop(iters, || CallRecord::decode(black_box(&key)).unwrap());
        }
        "call/decode/hand" => {
            let key = call().to_key().unwrap();
            bench_loop(iters, || call_decode_by_hand(black_box(&key)).unwrap());
        }
        "call/decode/format" => {
            let key = call().to_key().unwrap();
            bench_loop(iters, || call_split_parse(black_box(&key)));
        }
        "salted_call/decode/rowkey" => {
            let key = salted_call().to_key().unwrap();
            bench_loop(iters, || SaltedCall::decode(black_box(&key)).unwrap());
        }
        "salted_call/decode/hand" => {
            let key = salted_call().to_key().unwrap();
            bench_loop(iters, || {
                salted_call_decode_by_hand(black_box(&key)).unwrap()
            });
        }
        "event/decode/rowkey" => {
            let key = event().to_key().unwrap();
            bench_loop(iters, || Event::decode(black_box(&key)).unwrap());
        }
        "event/decode/hand" => {
            let key = event().to_key().unwrap();
            bench_loop(iters, || event_decode_by_hand(black_box(&key)).unwrap());
        }
        "event/decode/format" => {
            let key = event_format(&event());
            bench_loop(iters, || event_split_parse(black_box(&key)));
        }
        "event/decode/memcomparable" => {
            let mc = memcomparable::to_vec(&plain_event()).unwrap();
            bench_loop(iters, || {
                memcomparable::from_slice::<PlainEvent>(black_box(&mc)).unwrap()
            });
        }
        "event/decode/storekey" => {
            let sk = storekey::encode_vec(&plain_event()).unwrap();
            bench_loop(iters, || {
                storekey::decode::<_, PlainEvent>(black_box(&sk[..])).unwrap()
            });
        }
        "spend/scan/rowkey" => {
            let s = spend();
            bench_loop(iters, || {
                let s = black_box(&s);
                Spend::scan()
                    .month
                    .eq(s.month)
                    .user
                    .eq(s.user)
                    .at_ms
                    .latest(1)
                    .unwrap()
            });
        }
        "salted_call/scan/rowkey" => {
            let r = salted_call();
            bench_loop(iters, || {
                let r = black_box(&r);
                SaltedCall::scan().tel.eq(r.tel).time.since(r.time).unwrap()
            });
        }
        "merge/6/rowkey" => merge_case(6, iters),
        "merge/64/rowkey" => merge_case(64, iters),
        "merge/256/rowkey" => merge_case(256, iters),
        other => {
            return u64_cases!(other, iters,
                "u64x2" => U64x2, "u64x4" => U64x4, "u64x8" => U64x8, "u64x16" => U64x16)
        }
    }
    true
}

/// The hand-written codecs write rowkey's bytes and read them back; the
/// peers round-trip.
fn check() -> Result<(), String> {
    fn same(what: &str, rowkey: &[u8], hand: &[u8]) -> Result<(), String> {
        if rowkey == hand {
            Ok(())
        } else {
            Err(format!("{what}: rowkey {rowkey:02X?} != hand {hand:02X?}"))
        }
    }
    let s = spend();
    let key = s.to_key().unwrap();
    let mut out = [0u8; 24];
    spend_by_hand(s.month, s.user, s.at_ms, &mut out).unwrap();
    same("spend", &key, &out)?;
    let mut into = [0u8; 24];
    s.encode_into(&mut into).unwrap();
    same("spend encode_into", &into, &out)?;
    same("spend to_vec", &s.to_vec().unwrap(), &out)?;
    same("spend record key", &spend_row().to_key().unwrap(), &out)?;
    same(
        "spend record's key",
        &spend_row().key().to_key().unwrap(),
        &out,
    )?;
    same("spend format!", &key, &spend_format(&s))?;
    if Spend::decode(&key).unwrap() != s
        || spend_decode_by_hand(&key) != Some((s.month, s.user, s.at_ms))
    {
        return Err("spend decode".into());
    }

    // The scan cases' plans select the sample's key.
    let plan = Spend::scan()
        .month
        .eq(s.month)
        .user
        .eq(s.user)
        .at_ms
        .latest(1)
        .unwrap();
    if plan.limit() != Some(1) || !plan.contains(&key) {
        return Err("spend scan".into());
    }
    let r = salted_call();
    let plan = SaltedCall::scan().tel.eq(r.tel).time.since(r.time).unwrap();
    if plan.len() != 6 || !plan.contains(&r.to_key().unwrap()) {
        return Err("salted call scan".into());
    }

    let r = call();
    let key = r.to_key().unwrap();
    let mut out = [0u8; 28];
    call_by_hand(r.bucket, r.tel, r.time, &mut out).unwrap();
    same("call", &key, &out)?;
    same("call format!", &key, &call_format(&r))?;
    let want = (r.bucket, r.tel, r.time);
    if CallRecord::decode(&key).unwrap() != r
        || call_decode_by_hand(&key) != Some(want)
        || call_split_parse(&key) != want
    {
        return Err("call decode".into());
    }

    // Every bucket: tel values that land in each of the 6.
    let mut seen = [false; 6];
    for tel in 13812345670..13812345770u64 {
        let r = SaltedCall {
            tel,
            time: 20211201120000,
        };
        let key = r.to_key().unwrap();
        let mut out = [0u8; 28];
        salted_call_by_hand(r.tel, r.time, &mut out).unwrap();
        same("salted call", &key, &out)?;
        if SaltedCall::decode(&key).unwrap() != r
            || salted_call_decode_by_hand(&key) != Some((r.tel, r.time))
        {
            return Err("salted call decode".into());
        }
        seen[usize::from(key[0] - b'0')] = true;
        let mut wrong = out;
        wrong[0] = b'0' + (wrong[0] - b'0' + 1) % 6;
        if SaltedCall::decode(&wrong).is_ok() || salted_call_decode_by_hand(&wrong).is_some() {
            return Err("salted call: a wrong bucket was accepted".into());
        }
    }
    if seen != [true; 6] {
        return Err(format!("salted call: buckets seen {seen:?}"));
    }

    for name in ["checkout\0completed", "", "\0", "a\0\0b", &"x".repeat(32)] {
        for at in [1_638_316_800_000, -5, 0, i64::MIN, i64::MAX] {
            let e = Event {
                tenant: 7,
                name: name.into(),
                at,
                seq: 42,
            };
            let key = e.to_key().unwrap();
            let mut out = [0u8; EVENT_MAX];
            let n = event_by_hand(e.tenant, &e.name, e.at, e.seq, &mut out).unwrap();
            same("event", &key, &out[..n])?;
            let mut into = [0u8; EVENT_MAX];
            let m = e.encode_into(&mut into).unwrap();
            same("event encode_into", &into[..m], &out[..n])?;
            same("event to_vec", &e.to_vec().unwrap(), &out[..n])?;
            let row = EventRow {
                seq: e.seq,
                name: e.name.clone(),
                payload: 1,
                at: e.at,
                tenant: e.tenant,
            };
            same("event record key", &row.to_key().unwrap(), &out[..n])?;
            if Event::decode(&key).unwrap() != e
                || event_decode_by_hand(&key) != Some((e.tenant, e.name.clone(), e.at, e.seq))
            {
                return Err(format!("event decode {name:?} {at}"));
            }
        }
    }
    for at in [1_638_316_800_000, -5, 0, i64::MIN, i64::MAX] {
        let e = Event { at, ..event() };
        let back = event_split_parse(&event_format(&e));
        if back != (e.tenant, e.name.clone(), e.at, e.seq) {
            return Err(format!("event format! round trip {at}"));
        }
    }
    let earlier = Event { at: -5, ..event() };
    if event_format(&earlier) <= event_format(&event()) {
        return Err("event format!: a later time must sort first".into());
    }
    let e = plain_event();
    let mc = memcomparable::to_vec(&e).unwrap();
    let sk = storekey::encode_vec(&e).unwrap();
    if memcomparable::from_slice::<PlainEvent>(&mc).unwrap() != e
        || storekey::decode::<_, PlainEvent>(&sk[..]).unwrap() != e
    {
        return Err("peer event round trip".into());
    }

    macro_rules! check_u64 {
        ($($ty:ident),+) => {$(
            let k = $ty::sample();
            let key = k.to_key().unwrap();
            same(stringify!($ty), &key, &k.by_hand())?;
            if $ty::decode(&key).unwrap() != k || $ty::decode_by_hand(&key) != Some(k) {
                return Err(concat!(stringify!($ty), " decode").into());
            }
        )+};
    }
    check_u64!(U64x2, U64x4, U64x8, U64x16);

    for n in [6, 64, 256] {
        merge_case(n, 10_000);
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["list"] => CASES.iter().for_each(|c| println!("{c}")),
        ["check"] => match check() {
            Ok(()) => println!("check: ok ({} cases)", CASES.len()),
            Err(e) => {
                eprintln!("check failed: {e}");
                std::process::exit(1);
            }
        },
        [case, iters] => {
            let iters: u64 = iters.parse().expect("iterations: a number");
            if !CASES.contains(&case) || !run(case, iters) {
                eprintln!("unknown case {case:?}; `list` prints them");
                std::process::exit(2);
            }
        }
        _ => {
            eprintln!("usage: rowkey-callgrind list | check | <case> <iterations>");
            std::process::exit(2);
        }
    }
}
