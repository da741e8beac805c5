//! Order status (newest first) and the hot event window.
#![allow(dead_code)]

use super::*;

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
