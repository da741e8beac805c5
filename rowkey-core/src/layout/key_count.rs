//! [`Layout::key_count`]: how many distinct keys a fixed-width layout can
//! write, from what each field's codec and values can hold: what a wide
//! row's qualifier layout says of the most cells a row can hold.

use super::{FieldCodec, FieldLayout, Layout};
use crate::ValueKind;

impl Layout {
    /// How many distinct keys the layout can write, when every field is
    /// fixed-width and the count is known from its codec and values
    /// (integers `2^bits`, `#[bits]` parts `2^bits`, enums their variants,
    /// `#[text(width = W)]` integers `10^W`, byte arrays `256^N`); `None`
    /// for a variable width, a type whose values are not counted here
    /// (dates, UUIDs, floats) or a count past `u128`. A salt or hash prefix
    /// adds none (it is computed from the fields).
    ///
    /// For a qualifier type, the most cells a row of it can hold: 65,536
    /// for OpenTSDB's 16-bit second qualifier, of which OpenTSDB uses
    /// 3,600 offsets (with their flags).
    ///
    /// ```
    /// use rowkey::RowKey;
    /// #[derive(RowKey)]
    /// struct Second { s: u16 }
    /// #[derive(RowKey)]
    /// struct Minute { #[text(width = 2)] m: u8, flag: bool }
    /// #[derive(RowKey)]
    /// struct Named { #[max_len(8)] name: String }
    /// assert_eq!(Second::layout().key_count(), Some(65_536));
    /// assert_eq!(Minute::layout().key_count(), Some(200));
    /// assert_eq!(Named::layout().key_count(), None);
    /// ```
    pub fn key_count(&self) -> Option<u128> {
        self.fields
            .iter()
            .try_fold(1u128, |n, f| n.checked_mul(field_count(f)?))
    }
}

/// Distinct values a field can write, if counted.
fn field_count(f: &FieldLayout) -> Option<u128> {
    f.fixed_len?;
    let count = match f.codec {
        FieldCodec::Binary => kind_count(f.value.unwrapped())?,
        FieldCodec::Text { width, .. } => 10u128.checked_pow(u32::try_from(width).ok()?)?,
        FieldCodec::DescTimestamp { .. } => 1u128 << 63,
        _ => return None,
    };
    if f.optional {
        return count.checked_add(1);
    }
    Some(count)
}

fn kind_count(kind: &ValueKind) -> Option<u128> {
    let pow2 = |bits: u32| 1u128.checked_shl(bits).filter(|_| bits < 128);
    match *kind {
        ValueKind::Int { bytes, .. } => pow2(8 * u32::from(bytes)),
        ValueKind::Bool => Some(2),
        ValueKind::Unit => Some(1),
        ValueKind::ByteArray(n) => pow2(8 * u32::try_from(n).ok()?),
        ValueKind::Enum { variants, .. } => Some(variants.len() as u128),
        ValueKind::Bits { fields, .. } => pow2(fields.iter().map(|b| u32::from(b.bits)).sum()),
        _ => None,
    }
}

/// A count shown with commas between thousands (`65,536`): how `explain()`
/// and a wide column's `describe()` write counts of keys and cells.
///
/// ```
/// use rowkey::layout::Thousands;
/// assert_eq!(Thousands(3_600).to_string(), "3,600");
/// assert_eq!(Thousands(999).to_string(), "999");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Thousands(pub u128);

impl core::fmt::Display for Thousands {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let digits = self.0.to_string();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                f.write_str(",")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}
