//! Hash-prefixed lookups: risk profiles (uid, ID card, phone) and car telemetry.
#![allow(dead_code)]

use super::*;

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
