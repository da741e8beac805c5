//! [`FanOut`]: why a plan reads more than one range, kept for
//! [`PlanExplain`](super::PlanExplain): the IN-lists that multiply the
//! key prefixes, and the salt inputs left unfixed that send each prefix
//! to every bucket.

use std::sync::Arc;

/// What multiplied a plan's ranges. Not part of what a plan reads: two
/// plans of the same ranges are equal however they were built.
#[derive(Debug, Clone, Default)]
pub(crate) struct FanOut {
    /// Each IN-list, in key order: its field and its number of values.
    pub(crate) lists: Option<Arc<[(&'static str, usize)]>>,
    /// Salt buckets read per IN-list combination (per plan, without one).
    pub(crate) buckets_each: u32,
    /// The salt inputs not fixed to one value: a bit per place in
    /// [`SaltPlan::inputs`](crate::SaltPlan::inputs) (the first 64).
    pub(crate) unfixed_salt: u64,
}

impl PartialEq for FanOut {
    fn eq(&self, _: &FanOut) -> bool {
        true
    }
}

impl Eq for FanOut {}

impl core::hash::Hash for FanOut {
    fn hash<H: core::hash::Hasher>(&self, _: &mut H) {}
}
