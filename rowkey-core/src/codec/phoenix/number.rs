//! Phoenix's numbers and booleans in their ascending form (`PInteger`,
//! `PUnsignedInt`, `PDouble`, `PBoolean`...): what a cell holds and what a
//! key holds before a DESC column inverts it.
//!
//! - Signed integers: big-endian, the sign bit flipped (as rowkey's own
//!   integers).
//! - Unsigned integers: plain big-endian of a value Java's signed type
//!   holds, so `0..=i32::MAX` for `UNSIGNED_INT`.
//! - `FLOAT`/`DOUBLE`: the bits with the sign bit set for a positive
//!   value or every bit inverted for a negative one, then 1 added as an
//!   integer (`PDouble.encodeDouble`). Java's `doubleToLongBits` makes
//!   every NaN one NaN; `-0.0` and `0.0` stay two keys.
//! - `UNSIGNED_FLOAT`/`UNSIGNED_DOUBLE`: the raw bits of a value not
//!   below 0 (`-0.0` passes, as in Phoenix).
//! - `BOOLEAN`: `01` true, `00` false.

/// Java's `Double.doubleToLongBits`: every NaN as `0x7ff8000000000000`.
#[inline]
pub const fn java_double_bits(v: f64) -> u64 {
    if v.is_nan() {
        0x7ff8_0000_0000_0000
    } else {
        v.to_bits()
    }
}

/// Java's `Float.floatToIntBits`: every NaN as `0x7fc00000`.
#[inline]
pub const fn java_float_bits(v: f32) -> u32 {
    if v.is_nan() {
        0x7fc0_0000
    } else {
        v.to_bits()
    }
}

/// `DOUBLE`'s 8 bytes (`PDouble.encodeDouble`).
///
/// ```
/// use rowkey::codec::phoenix::{double_bytes, double_from};
/// assert_eq!(double_bytes(1.5), 0xbff8_0000_0000_0001u64.to_be_bytes());
/// assert_eq!(double_bytes(-0.0), 0x8000_0000_0000_0000u64.to_be_bytes());
/// assert_eq!(double_bytes(0.0), 0x8000_0000_0000_0001u64.to_be_bytes());
/// assert_eq!(double_from(double_bytes(-2.5)), -2.5);
/// ```
#[inline]
pub const fn double_bytes(v: f64) -> [u8; 8] {
    let l = java_double_bits(v) as i64;
    // Never overflows: no canonical double's bits make it wrap.
    ((l ^ ((l >> 63) | i64::MIN)).wrapping_add(1)).to_be_bytes()
}

/// The `DOUBLE` of 8 bytes (`PDouble.decodeDouble`).
#[inline]
pub const fn double_from(bytes: [u8; 8]) -> f64 {
    let l = i64::from_be_bytes(bytes).wrapping_sub(1);
    let l = l ^ ((!l >> 63) | i64::MIN);
    f64::from_bits(l as u64)
}

/// `FLOAT`'s 4 bytes (`PFloat.encodeFloat`).
#[inline]
pub const fn float_bytes(v: f32) -> [u8; 4] {
    let i = java_float_bits(v) as i32;
    ((i ^ ((i >> 31) | i32::MIN)).wrapping_add(1)).to_be_bytes()
}

/// The `FLOAT` of 4 bytes (`PFloat.decodeFloat`).
#[inline]
pub const fn float_from(bytes: [u8; 4]) -> f32 {
    let i = i32::from_be_bytes(bytes).wrapping_sub(1);
    let i = i ^ ((!i >> 31) | i32::MIN);
    f32::from_bits(i as u32)
}

/// Whether the decoded bits are ones Phoenix writes: its encoders see
/// only canonical NaNs, so any other NaN's bytes are not a stored value.
#[inline]
pub(crate) const fn canonical_double(v: f64) -> bool {
    !v.is_nan() || v.to_bits() == 0x7ff8_0000_0000_0000
}

/// As [`canonical_double`], for `FLOAT`.
#[inline]
pub(crate) const fn canonical_float(v: f32) -> bool {
    !v.is_nan() || v.to_bits() == 0x7fc0_0000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_are_phoenixs() {
        // PDouble's documented forms (testing/phoenix/notes/types.md §2.3).
        let cases: [(f64, u64); 9] = [
            (f64::NEG_INFINITY, 0x0010_0000_0000_0000),
            (-f64::MAX, 0x0010_0000_0000_0001),
            (-1.0, 0x4010_0000_0000_0000),
            (-0.0, 0x8000_0000_0000_0000),
            (0.0, 0x8000_0000_0000_0001),
            (1.0, 0xbff0_0000_0000_0001),
            (f64::MAX, 0xfff0_0000_0000_0000),
            (f64::INFINITY, 0xfff0_0000_0000_0001),
            (f64::NAN, 0xfff8_0000_0000_0001),
        ];
        for (v, bits) in cases {
            assert_eq!(double_bytes(v), bits.to_be_bytes(), "{v}");
            let back = double_from(bits.to_be_bytes());
            assert_eq!(back.to_bits(), java_double_bits(v), "{v}");
        }
        assert_eq!(float_bytes(1.5), 0xbfc0_0001u32.to_be_bytes());
        assert_eq!(float_bytes(f32::NAN), 0xffc0_0001u32.to_be_bytes());
        assert_eq!(float_bytes(-2.5), 0x3fe0_0000u32.to_be_bytes());
    }
}
