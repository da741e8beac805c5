//! The ten layouts of rowkey-techniques.md section 6 as key structs, with
//! a deterministic generator of rows for each and the queries each layout
//! is designed to answer (with the filter that defines each query's rows).
//! Shared by `examples/<layout>.rs` and the end-to-end tests.
#![allow(dead_code, unused_imports)]

mod activity;
mod calls;
mod events;
mod ledger;
mod lookups;
mod trades;

pub use activity::*;
pub use calls::*;
pub use events::*;
pub use ledger::*;
pub use lookups::*;
pub use trades::*;

pub(crate) use rowkey::salt::{java_abs_mod, java_hash_code};
pub(crate) use rowkey::scan::ScanPlan;
pub(crate) use rowkey::split::SplitKeys;
pub(crate) use rowkey::RowKey;

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
pub const MONTH: u64 = 30 * DAY;

/// `yyyyMMdd` of a day number since T0 (30-day months of a 360-day year:
/// enough for generated data).
pub fn date(day: u64) -> u32 {
    let (y, m, d) = (2021 + day / 360, 1 + day % 360 / 30, 1 + day % 30);
    (y * 10_000 + m * 100 + d) as u32
}
