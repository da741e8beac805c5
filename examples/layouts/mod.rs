//! The ten layouts of rowkey-techniques.md section 6 as key structs, with
//! a deterministic generator of rows for each and the queries each layout
//! is designed to answer (with the filter that defines each query's rows).
//! Shared by `examples/<layout>.rs` and the end-to-end tests.
#![allow(dead_code)]

use rowkey::salt::{java_abs_mod, java_hash_code};
use rowkey::scan::ScanPlan;
use rowkey::split::SplitKeys;
use rowkey::RowKey;

/// splitmix64: the same rows on every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A query: its plan, and the rows it must return (as a filter).
pub struct Query<T, const N: usize> {
    pub name: String,
    pub plan: ScanPlan<N>,
    pub keep: Box<dyn Fn(&T) -> bool>,
}

impl<T, const N: usize> Query<T, N> {
    pub fn new(
        name: impl Into<String>,
        plan: ScanPlan<N>,
        keep: impl Fn(&T) -> bool + 'static,
    ) -> Self {
        Query {
            name: name.into(),
            plan,
            keep: Box::new(keep),
        }
    }
}

/// 2021-01-01T00:00:00Z in ms, and spans used by the generators.
pub const T0: u64 = 1_609_459_200_000;
pub const HOUR: u64 = 3_600_000;
pub const DAY: u64 = 24 * HOUR;
const MONTH: u64 = 30 * DAY;

/// `yyyyMMdd` of a day number since T0 (30-day months of a 360-day year:
/// enough for generated data).
fn date(day: u64) -> u32 {
    let (y, m, d) = (2021 + day / 360, 1 + day % 360 / 30, 1 + day % 30);
    (y * 10_000 + m * 100 + d) as u32
}

// 1. Order status, newest first: reverse(user_id) + (MAX - ts).

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct OrderStatus {
    #[text(width = 11)]
    #[reverse]
    pub user_id: u64,
    #[desc_ts]
    pub ts: i64,
    #[text(width = 8)]
    pub order_id: u32,
}

impl OrderStatus {
    pub fn rows(n: usize) -> Vec<Self> {
        let mut r = Rng(1);
        (0..n)
            .map(|i| OrderStatus {
                user_id: 13_800_000_000 + r.below(500),
                ts: (T0 + r.below(365 * DAY)) as i64,
                order_id: i as u32,
            })
            .collect()
    }
    /// Reversed ids lead with their last digit: ten even regions.
    pub fn splits() -> SplitKeys {
        SplitKeys::new((1..10u8).map(|d| vec![b'0' + d]))
    }
    pub fn queries(rows: &[Self]) -> Vec<Query<Self, { OrderStatus::MAX_LEN + 1 }>> {
        let u = rows[0].user_id;
        let (t1, t2) = ((T0 + 100 * DAY) as i64, (T0 + 200 * DAY) as i64);
        vec![
            Query::new(
                format!("latest order of {u}"),
                OrderStatus::scan().user_id(u).ts_latest().unwrap(),
                move |r: &Self| r.user_id == u,
            ),
            Query::new(
                format!("orders of {u} between day 100 and 200"),
                OrderStatus::scan().user_id(u).ts_between(t1, t2).unwrap(),
                move |r: &Self| r.user_id == u && (t1..t2).contains(&r.ts),
            ),
            Query::new(
                format!("all orders of {u}"),
                OrderStatus::scan().user_id(u).plan().unwrap(),
                move |r: &Self| r.user_id == u,
            ),
        ]
    }
}

// 2. Hot event window: 2-digit salt + event_id + date + offset.

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct HotEvent {
    #[text(width = 6)]
    pub event_id: u32,
    #[text(width = 8)]
    pub date: u32,
    /// The salt hashes the Kafka offset: one event's rows spread over all
    /// sixteen buckets (two digits, `00`..`15`).
    #[salt(buckets = 16)]
    #[text(width = 12)]
    pub offset: u64,
}

impl HotEvent {
    pub fn rows(n: usize) -> Vec<Self> {
        let mut r = Rng(2);
        (0..n)
            .map(|i| HotEvent {
                event_id: r.below(20) as u32,
                date: date(r.below(10)),
                offset: i as u64,
            })
            .collect()
    }
    pub fn queries(rows: &[Self]) -> Vec<Query<Self, { HotEvent::MAX_LEN + 1 }>> {
        let (e, d) = (rows[0].event_id, rows[0].date);
        vec![
            Query::new(
                format!("event {e}, every bucket, merged"),
                HotEvent::scan().event_id(e).plan().unwrap(),
                move |r: &Self| r.event_id == e,
            ),
            Query::new(
                format!("event {e} on {d}"),
                HotEvent::scan().event_id(e).date(d).plan().unwrap(),
                move |r: &Self| r.event_id == e && r.date == d,
            ),
        ]
    }
}

// 3 and 4. Trades, keyed by seller (salted) and, in a second table, by buyer.

/// One trade: what both keys are built from.
#[derive(Debug, Clone, PartialEq)]
pub struct Trade {
    pub seller_id: u32,
    pub buyer_id: u32,
    pub ts: u64,
    pub order_id: u64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct SellerTrade {
    #[salt(buckets = 8)]
    #[text(width = 8)]
    pub seller_id: u32,
    #[text(width = 13)]
    pub ts: u64,
    #[text(width = 10)]
    pub order_id: u64,
}

/// The secondary index: the same trades by buyer.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct BuyerTrade {
    #[text(width = 8)]
    pub buyer_id: u32,
    #[text(width = 13)]
    pub ts: u64,
    #[text(width = 10)]
    pub order_id: u64,
}

impl Trade {
    pub fn rows(n: usize) -> Vec<Self> {
        let mut r = Rng(3);
        (0..n)
            .map(|i| Trade {
                seller_id: 1000 + r.below(50) as u32,
                buyer_id: 5000 + r.below(300) as u32,
                ts: T0 + r.below(12 * MONTH),
                order_id: i as u64,
            })
            .collect()
    }
    pub fn seller_key(&self) -> SellerTrade {
        SellerTrade {
            seller_id: self.seller_id,
            ts: self.ts,
            order_id: self.order_id,
        }
    }
    pub fn buyer_key(&self) -> BuyerTrade {
        BuyerTrade {
            buyer_id: self.buyer_id,
            ts: self.ts,
            order_id: self.order_id,
        }
    }
    /// Month `m` (0-based) of the generated year, as a ts range.
    pub fn month(m: u64) -> std::ops::Range<u64> {
        T0 + m * MONTH..T0 + (m + 1) * MONTH
    }
}

impl SellerTrade {
    pub fn queries(rows: &[Trade]) -> Vec<Query<Self, { SellerTrade::MAX_LEN + 1 }>> {
        let s = rows[0].seller_id;
        let month = Trade::month(3);
        let m = month.clone();
        vec![Query::new(
            format!("seller {s}'s 4th month (one bucket)"),
            SellerTrade::scan().seller_id(s).ts_range(month).unwrap(),
            move |r: &Self| r.seller_id == s && m.contains(&r.ts),
        )]
    }
}

impl BuyerTrade {
    pub fn queries(rows: &[Trade]) -> Vec<Query<Self, { BuyerTrade::MAX_LEN + 1 }>> {
        let b = rows[0].buyer_id;
        let month = Trade::month(3);
        let m = month.clone();
        vec![Query::new(
            format!("buyer {b}'s 4th month (from the index)"),
            BuyerTrade::scan().buyer_id(b).ts_range(month).unwrap(),
            move |r: &Self| r.buyer_id == b && m.contains(&r.ts),
        )]
    }
}

// 5. Risk profile lookups: md5_hex(uid)[0..5] + uid.

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct RiskProfile {
    #[hash_prefix(len = 5)]
    #[max_len(32)]
    pub uid: String,
}

impl RiskProfile {
    pub fn rows(n: usize) -> Vec<Self> {
        (0..n)
            .map(|i| RiskProfile {
                uid: format!("u{i:07}"),
            })
            .collect()
    }
    pub fn splits() -> SplitKeys {
        SplitKeys::hex_string(16)
    }
    pub fn queries(rows: &[Self]) -> Vec<Query<Self, { RiskProfile::MAX_LEN + 1 }>> {
        [0, rows.len() / 2, rows.len() - 1]
            .into_iter()
            .map(|i| {
                let uid = rows[i].uid.clone();
                let plan = RiskProfile::scan().uid(&uid).plan().unwrap();
                Query::new(format!("point get {uid}"), plan, move |r: &Self| {
                    r.uid == uid
                })
            })
            .collect()
    }
}

/// The same lookup by ID card number.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct IdCardProfile {
    #[hash_prefix(len = 5)]
    #[pad(width = 18)]
    pub id_card: String,
}

/// The same lookup by phone number.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct PhoneProfile {
    #[hash_prefix(len = 5)]
    #[text(width = 11)]
    pub phone: u64,
}

impl IdCardProfile {
    pub fn rows(n: usize) -> Vec<Self> {
        (0..n)
            .map(|i| IdCardProfile {
                id_card: format!("11010519491231{i:04}"),
            })
            .collect()
    }
}

impl PhoneProfile {
    pub fn rows(n: usize) -> Vec<Self> {
        (0..n)
            .map(|i| PhoneProfile {
                phone: 13_800_000_000 + i as u64,
            })
            .collect()
    }
}

// 6. Connected car telemetry: md5_hex(car_id)[0..6] + car_id + ts.

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct CarTelemetry {
    #[hash_prefix(len = 6)]
    #[pad(width = 17)]
    pub car_id: String,
    #[text(width = 13)]
    pub ts: u64,
}

impl CarTelemetry {
    pub fn rows(n: usize) -> Vec<Self> {
        let mut r = Rng(6);
        (0..n)
            .map(|_| CarTelemetry {
                car_id: format!("LSVAU2180N{:07}", r.below(40)),
                ts: T0 + r.below(DAY),
            })
            .collect()
    }
    pub fn splits() -> SplitKeys {
        SplitKeys::hex_string(16)
    }
    pub fn queries(rows: &[Self]) -> Vec<Query<Self, { CarTelemetry::MAX_LEN + 1 }>> {
        let car = rows[0].car_id.clone();
        let hour = T0 + 5 * HOUR..T0 + 6 * HOUR;
        let (c, h) = (car.clone(), hour.clone());
        vec![Query::new(
            format!("car {car}, 05:00 to 06:00"),
            CarTelemetry::scan().car_id(&car).ts_range(hour).unwrap(),
            move |r: &Self| r.car_id == c && h.contains(&r.ts),
        )]
    }
}

// 7. Latest user operations: uid + (MAX - ts).

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct UserOp {
    pub uid: u64,
    #[desc_ts]
    pub at: i64,
    #[max_len(16)]
    pub op: String,
}

impl UserOp {
    pub fn rows(n: usize) -> Vec<Self> {
        let mut r = Rng(7);
        let ops = ["login", "view", "buy", "logout"];
        (0..n)
            .map(|i| UserOp {
                uid: r.below(200),
                at: (T0 + r.below(DAY)) as i64,
                op: format!("{}-{i}", ops[i % 4]),
            })
            .collect()
    }
    /// Eight regions over the 200 generated uids.
    pub fn splits() -> SplitKeys {
        SplitKeys::new((1..8u64).map(|i| (i * 25).to_be_bytes().to_vec()))
    }
    pub fn queries(rows: &[Self]) -> Vec<Query<Self, { UserOp::MAX_LEN + 1 }>> {
        let u = rows[0].uid;
        let (t1, t2) = ((T0 + 6 * HOUR) as i64, (T0 + 12 * HOUR) as i64);
        vec![
            Query::new(
                format!("latest 10 operations of user {u}"),
                UserOp::scan().uid(u).plan().unwrap().with_limit(10),
                move |r: &Self| r.uid == u,
            ),
            Query::new(
                format!("user {u}, 06:00 to 12:00"),
                UserOp::scan().uid(u).at_between(t1, t2).unwrap(),
                move |r: &Self| r.uid == u && (t1..t2).contains(&r.at),
            ),
        ]
    }
}

// 8. URLs by site: reversed dot segments + path.

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct SitePage {
    #[max_len(64)]
    #[reverse(segments = ".")]
    pub host: String,
    #[max_len(128)]
    pub path: String,
}

impl SitePage {
    pub fn rows(n: usize) -> Vec<Self> {
        let mut r = Rng(8);
        let hosts = [
            "www.iteblog.com",
            "blog.iteblog.com",
            "www.example.org",
            "example.org",
            "a.b.example.org",
        ];
        (0..n)
            .map(|i| SitePage {
                host: hosts[r.below(5) as usize].to_string(),
                path: format!("/archives/{i}"),
            })
            .collect()
    }
    /// Top-level domains apart: `com.` sites, then `org.` sites.
    pub fn splits() -> SplitKeys {
        SplitKeys::new([b"net".to_vec()])
    }
    pub fn queries(rows: &[Self]) -> Vec<Query<Self, { SitePage::MAX_LEN + 1 }>> {
        let h = rows[0].host.clone();
        let host = h.clone();
        vec![Query::new(
            format!("every page of {h}"),
            SitePage::scan().host(&h).plan().unwrap(),
            move |r: &Self| r.host == host,
        )]
    }
}

// 9. Call records: the seed's Java salt, 6 buckets, pre-split 0|..4|.

/// `Math.abs(last4(tel).hashCode() ^ yyyyMM(time).hashCode()) % 6`.
pub fn call_bucket_of(tel: u64, yyyymm: u32) -> u32 {
    let tel = tel.to_string();
    java_abs_mod(
        java_hash_code(&tel[tel.len() - 4..]) ^ java_hash_code(&yyyymm.to_string()),
        6,
    )
}

pub fn call_bucket(r: &CallRecord) -> u32 {
    call_bucket_of(r.tel, (r.time / 100_000_000) as u32)
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(separator = "_")]
pub struct CallRecord {
    #[salt(buckets = 6, hash = call_bucket)]
    #[text(width = 11)]
    pub tel: u64,
    #[salt]
    #[text(width = 14)]
    pub time: u64,
}

impl CallRecord {
    pub fn rows(n: usize) -> Vec<Self> {
        let mut r = Rng(9);
        (0..n)
            .map(|_| {
                let (m, d) = (1 + r.below(12), 1 + r.below(28));
                let (h, mi, s) = (r.below(24), r.below(60), r.below(60));
                CallRecord {
                    tel: 13_800_000_000 + r.below(300),
                    time: ((2021 * 100 + m) * 100 + d) * 1_000_000 + h * 10_000 + mi * 100 + s,
                }
            })
            .collect()
    }
    pub fn queries(rows: &[Self]) -> Vec<Query<Self, { CallRecord::MAX_LEN + 1 }>> {
        let t = rows[0].tel;
        let month = (rows[0].time / 100_000_000) as u32;
        // The bucket depends only on the phone and the month: pin it.
        let plan = CallRecord::scan()
            .in_bucket(call_bucket_of(t, month))
            .tel(t)
            .time_starts_with(&month.to_string())
            .unwrap();
        vec![Query::new(
            format!("phone {t} in {month} (one range)"),
            plan,
            move |r: &Self| r.tel == t && r.time / 100_000_000 == u64::from(month),
        )]
    }
}

// 10. The spending ledger: 120 buckets, ten per month;
//     bucket(3) + yyyy-MM + user (padded with 0x01 on the left) + -dd hh:mm:ss.

/// The group of a `yyyy-MM` month: its month of the year, 0..12 (anything
/// else is out of range, which encoding reports).
pub fn month_of_year(yyyy_mm: &str) -> u32 {
    yyyy_mm
        .get(5..7)
        .and_then(|m| m.parse::<u32>().ok())
        .and_then(|m| m.checked_sub(1))
        .unwrap_or(u32::MAX)
}

#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Ledger {
    #[salt(buckets = 120, group_by = month, group = month_of_year, groups = 12, per_group = 10)]
    #[pad(width = 7)]
    pub month: String,
    #[salt]
    #[pad(width = 10, fill = 0x01, align = left)]
    pub user: String,
    /// `-dd hh:mm:ss`.
    #[pad(width = 12)]
    pub rest: String,
}

impl Ledger {
    pub fn rows(n: usize) -> Vec<Self> {
        let mut r = Rng(10);
        (0..n)
            .map(|_| Ledger {
                month: format!("2021-{:02}", 1 + r.below(12)),
                user: format!("user{}", r.below(100)),
                rest: format!(
                    "-{:02} {:02}:{:02}:{:02}",
                    1 + r.below(28),
                    r.below(24),
                    r.below(60),
                    r.below(60)
                ),
            })
            .collect()
    }
    pub fn queries(rows: &[Self]) -> Vec<Query<Self, { Ledger::MAX_LEN + 1 }>> {
        let u = rows[0].user.clone();
        let user = u.clone();
        let december = || "2021-12".to_string();
        vec![
            Query::new(
                format!("{u} in December (1 range)"),
                Ledger::scan().month(december()).user(&u).plan().unwrap(),
                move |r: &Self| r.month == "2021-12" && r.user == user,
            ),
            Query::new(
                "everyone in December (10 ranges)",
                Ledger::scan().month(december()).plan().unwrap(),
                |r: &Self| r.month == "2021-12",
            ),
        ]
    }
}
