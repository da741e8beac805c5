//! Call records with the seed's Java salt.
#![allow(dead_code)]

use super::*;

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
