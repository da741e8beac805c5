//! The spending ledger: 120 buckets, ten per month.
#![allow(dead_code)]

use super::*;

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
