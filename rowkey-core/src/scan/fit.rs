//! Range bounds on text and bytes fields cut to the field's length, keeping
//! exactly the same values. Only generated code calls these (through
//! `__private`).

/// A range's lower bound on a text or bytes field of at most `max_len`
/// bytes, cut to fit: no value is longer, so `v >= b` (and `v > b`) for a
/// longer `b` holds exactly when `v > b[..max_len]`. Not "above every
/// value": with `max_len` 4, `"abce"` and `"b"` are above `"abcde"`.
pub fn fit_start(bound: core::ops::Bound<&[u8]>, max_len: usize) -> core::ops::Bound<&[u8]> {
    use core::ops::Bound;
    match bound {
        Bound::Included(b) | Bound::Excluded(b) if b.len() > max_len => {
            Bound::Excluded(&b[..max_len])
        }
        other => other,
    }
}

/// A range's upper bound cut to fit, as [`fit_start`]: `v < b` (and
/// `v <= b`) for a longer `b` holds exactly when `v <= b[..max_len]`.
pub fn fit_end(bound: core::ops::Bound<&[u8]>, max_len: usize) -> core::ops::Bound<&[u8]> {
    use core::ops::Bound;
    match bound {
        Bound::Included(b) | Bound::Excluded(b) if b.len() > max_len => {
            Bound::Included(&b[..max_len])
        }
        other => other,
    }
}
