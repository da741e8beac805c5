//! Phoenix's `DATE`, `TIME` and `TIMESTAMP` (`PDate`, `PTime`,
//! `PTimestamp`) and their `UNSIGNED_` forms.
//!
//! - `DATE`, `TIME`: milliseconds since the epoch (UTC) as a `BIGINT`
//!   (big-endian, sign bit flipped); the `UNSIGNED_` forms as an
//!   `UNSIGNED_LONG` (plain big-endian, not before the epoch).
//! - `TIMESTAMP`: those 8 bytes of its milliseconds, then the nanoseconds
//!   below the millisecond (0..=999,999) as 4 plain big-endian bytes.

/// A Phoenix `TIMESTAMP`: Java's `java.sql.Timestamp` as Phoenix stores
/// it, milliseconds since the epoch (UTC) and the nanoseconds below the
/// millisecond.
///
/// ```
/// use rowkey::codec::phoenix::PhoenixTimestamp;
/// let t = PhoenixTimestamp::from_nanos(1_700_000_000_123_456_789);
/// assert_eq!((t.millis(), t.sub_millis()), (1_700_000_000_123, 456_789));
/// assert_eq!(t.nanos(), 1_700_000_000_123_456_789);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PhoenixTimestamp {
    millis: i64,
    sub_millis: u32,
}

impl PhoenixTimestamp {
    /// The timestamp `millis` after the epoch and `sub_millis`
    /// nanoseconds more; `None` when `sub_millis` is a millisecond or
    /// more.
    pub const fn new(millis: i64, sub_millis: u32) -> Option<Self> {
        if sub_millis >= 1_000_000 {
            return None;
        }
        Some(PhoenixTimestamp { millis, sub_millis })
    }

    /// The timestamp `millis` after the epoch.
    pub const fn from_millis(millis: i64) -> Self {
        PhoenixTimestamp {
            millis,
            sub_millis: 0,
        }
    }

    /// The timestamp `nanos` after the epoch (1677 to 2262).
    pub const fn from_nanos(nanos: i64) -> Self {
        PhoenixTimestamp {
            millis: nanos.div_euclid(1_000_000),
            sub_millis: nanos.rem_euclid(1_000_000) as u32,
        }
    }

    /// Milliseconds since the epoch (`Timestamp.getTime()`).
    pub const fn millis(&self) -> i64 {
        self.millis
    }

    /// Nanoseconds below the millisecond.
    pub const fn sub_millis(&self) -> u32 {
        self.sub_millis
    }

    /// Nanoseconds since the epoch, as an `i128` (every timestamp has one).
    pub const fn nanos(&self) -> i128 {
        self.millis as i128 * 1_000_000 + self.sub_millis as i128
    }

    /// The 12 bytes (ascending form): `unsigned` for `UNSIGNED_TIMESTAMP`,
    /// whose milliseconds are plain big-endian (and not negative).
    pub(crate) fn bytes(&self, unsigned: bool) -> [u8; 12] {
        let mut out = [0u8; 12];
        let millis = if unsigned {
            self.millis as u64
        } else {
            (self.millis as u64) ^ (1 << 63)
        };
        out[..8].copy_from_slice(&millis.to_be_bytes());
        out[8..].copy_from_slice(&self.sub_millis.to_be_bytes());
        out
    }

    /// The timestamp of 12 bytes (ascending form), or why not.
    pub(crate) fn from_bytes(b: [u8; 12], unsigned: bool) -> Result<Self, &'static str> {
        let raw = u64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        let millis = if unsigned {
            i64::try_from(raw).map_err(|_| "an UNSIGNED_TIMESTAMP before the epoch")?
        } else {
            (raw ^ (1 << 63)) as i64
        };
        let sub_millis = u32::from_be_bytes([b[8], b[9], b[10], b[11]]);
        PhoenixTimestamp::new(millis, sub_millis)
            .ok_or("a TIMESTAMP whose nanoseconds field holds a millisecond or more")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_forms_phoenix_writes() {
        // 2023-11-14 22:13:20.123456789 (testing/phoenix/notes/types.md §2.11).
        let t = PhoenixTimestamp::new(1_700_000_000_123, 456_789).unwrap();
        let hex: String = t.bytes(false).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, "8000018bcfe5687b0006f855");
        let hex: String = t.bytes(true).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(hex, "0000018bcfe5687b0006f855");
        assert_eq!(PhoenixTimestamp::from_bytes(t.bytes(false), false), Ok(t));
        let before = PhoenixTimestamp::from_nanos(-1);
        assert_eq!((before.millis(), before.sub_millis()), (-1, 999_999));
        assert!(PhoenixTimestamp::from_bytes(before.bytes(true), true).is_err());
    }
}
