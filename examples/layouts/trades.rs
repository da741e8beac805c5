//! Trades by seller (salted) and, in a secondary index, by buyer.
#![allow(dead_code)]

use super::*;

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
