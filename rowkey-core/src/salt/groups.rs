//! Bucket groups of a salt's `group_by` field, as generated code computes
//! them (through `__private`).

/// The group of an integer field declared with `range = LO..=HI`: its
/// offset from `LO`, or `None` outside the range.
#[inline]
pub fn group_in_range(value: i128, lo: i128, hi: i128) -> Option<u32> {
    if (lo..=hi).contains(&value) {
        u32::try_from(value - lo).ok()
    } else {
        None
    }
}

/// A group computed by a user function, if it is below the group count.
#[inline]
pub fn checked_group(group: u32, groups: u32) -> Option<u32> {
    (group < groups).then_some(group)
}
