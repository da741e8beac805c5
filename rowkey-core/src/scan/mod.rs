//! Partial-row queries: the exact byte ranges that answer "all rows whose
//! key starts with these field values" (and a range or time window on the
//! next field), one per salt bucket where the key is salted.
//!
//! The derive generates a typed builder per key struct (`Key::scan()`):
//! each key field is a [`Step`] to fix (`eq`) or finish on (`starts_with`,
//! `range`, `between`, `since`, `until`, `latest`), in key order, and the
//! result is a [`ScanPlan`]; [`ScanRange`] is one `[start, stop)` range
//! of it; [`merge_sorted`] merges per-bucket row streams back into key
//! order ([`merge_sorted_by_offset`]: by the bytes from an offset, for
//! [`ScanPlan::ordered_after_in_lists`]), on [`MergeHeads`], the one merge
//! (and [`MergeOrder`], its tie rules) that the store's async merges use
//! too; [`page`] pages through a plan without re-reading rows.
//!
//! Ranges and plans of a key `K` hold `K::MAX_LEN + 1` bytes per bound
//! (room for the `0x00` that follows a key in an exclusive bound): name
//! them as `ScanRange<{ K::MAX_LEN + 1 }>`.
//!
//! ```
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct Spend<'a> {
//!     #[text(width = 6)]
//!     month: u32,
//!     #[pad(width = 10, fill = 0x01, align = left)]
//!     user: &'a str,
//!     #[desc_ts]
//!     at_ms: i64,
//! }
//!
//! let plan = Spend::scan().month.eq(202112).plan()?;
//! let range = plan.single().unwrap();
//! assert_eq!(range.start(), b"202112");
//! assert_eq!(range.stop(), Some(&b"202113"[..]));
//! assert_eq!(
//!     range.hbase_shell("spend"),
//!     r#"scan 'spend', {STARTROW => "202112", STOPROW => "202113"}"#
//! );
//! # Ok::<(), rowkey::EncodeError>(())
//! ```

pub(crate) mod absorb;
mod base64url;
mod builder;
mod cell_cursor;
mod cursor;
mod explain;
mod fan_out;
pub(crate) mod field_codec;
pub(crate) mod fit;
mod fuzzy;
mod fuzzy_tail;
pub(crate) mod in_list;
mod in_order;
pub(crate) mod merge;
mod merge_heads;
pub(crate) mod page;
mod phoenix;
mod plan;
mod scan_row;
mod sort_prefix;
mod state_cast;
pub(crate) mod step;
mod typed;
mod unavailable;

pub use builder::ScanBuilder;
pub use cell_cursor::{CellCursor, RangeResume};
pub use cursor::{Cursor, InvalidCursor};
pub use explain::PlanExplain;
pub use fuzzy::{FuzzyFilter, FuzzyKey, FuzzyKeyFull};
pub use in_list::{ScanQuery, DEFAULT_MAX_RANGES};
pub use merge::{merge_sorted, merge_sorted_by_offset, MergeSorted};
pub use merge_heads::{MergeHeads, MergeOrder};
pub use page::{offset_limit, page, Page, ReadCost, Resume};
pub use plan::{PlanRanges, ScanPlan};
pub use scan_row::ScanRow;
pub use step::Step;
// The traits the derive implements to build a key's scan steps are not
// API: generated code names them through `__private::scan`.
pub(crate) use step::{ScanField, ScanState};
pub use typed::{TypedScan, Whole};
pub use unavailable::*;

use crate::buf::KeyBuf;
use crate::key_text::hbase_string;
use crate::render::{cbt_arg, ruby_single_quoted, shell_word, UnrenderableKey};
use crate::KeyDisplay;
use core::fmt;

/// Rows from `start` (inclusive) to `stop` (exclusive; `None`: the end of
/// the table), in a stack buffer of `N` bytes per bound.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScanRange<const N: usize> {
    start: KeyBuf<N>,
    stop: Option<KeyBuf<N>>,
}

impl<const N: usize> ScanRange<N> {
    pub(crate) fn new(start: KeyBuf<N>, stop: Option<KeyBuf<N>>) -> Self {
        ScanRange { start, stop }
    }

    /// The range `[start, stop)` (`stop` `None`: to the end of the table),
    /// or `None` when a bound does not fit in `N` bytes.
    ///
    /// ```
    /// use rowkey::scan::ScanRange;
    /// let r = ScanRange::<8>::from_bounds(b"a", Some(b"b")).unwrap();
    /// assert!(r.contains(b"a\xFF") && !r.contains(b"b"));
    /// ```
    pub fn from_bounds(start: &[u8], stop: Option<&[u8]>) -> Option<Self> {
        let start = KeyBuf::from_slice(start)?;
        let stop = match stop {
            Some(s) => Some(KeyBuf::from_slice(s)?),
            None => None,
        };
        Some(ScanRange::new(start, stop))
    }

    /// The range of keys that start with `prefix`, or `None` when the
    /// prefix does not fit in `N` bytes.
    ///
    /// ```
    /// use rowkey::scan::ScanRange;
    /// let r = ScanRange::<8>::with_prefix(b"ab\xFF").unwrap();
    /// assert_eq!(r.stop(), Some(&b"ac"[..]));
    /// assert_eq!(ScanRange::<8>::with_prefix(b"\xFF\xFF").unwrap().stop(), None);
    /// ```
    pub fn with_prefix(prefix: &[u8]) -> Option<Self> {
        let start = KeyBuf::from_slice(prefix)?;
        let mut stop = start;
        let bounded = stop.advance_past_prefix();
        Some(ScanRange::new(start, bounded.then_some(stop)))
    }

    /// The first key in the range.
    pub fn start(&self) -> &[u8] {
        self.start.as_bytes()
    }

    /// The first key after the range; `None` means the end of the table.
    pub fn stop(&self) -> Option<&[u8]> {
        self.stop.as_ref().map(KeyBuf::as_bytes)
    }

    /// Whether `key` is in the range.
    pub fn contains(&self, key: &[u8]) -> bool {
        key >= self.start() && self.stop().is_none_or(|stop| key < stop)
    }

    /// Whether no key can be in the range.
    pub fn is_empty(&self) -> bool {
        self.stop().is_some_and(|stop| stop <= self.start())
    }

    /// The same rows for a store that scans backwards: from `high`
    /// (exclusive; `None`: the end of the table) down to `low` (inclusive).
    /// With HBase 2: `new Scan().withStartRow(high, false)
    /// .withStopRow(low, true).setReversed(true)`.
    pub fn reverse(&self) -> ReversedRange<'_> {
        ReversedRange {
            high: self.stop(),
            low: self.start(),
        }
    }

    /// The HBase shell command that scans this range of `table`.
    pub fn hbase_shell(&self, table: &str) -> String {
        match self.stop() {
            Some(stop) => format!(
                "scan {}, {{STARTROW => {}, STOPROW => {}}}",
                ruby_single_quoted(table),
                hbase_string(self.start()),
                hbase_string(stop)
            ),
            None => format!(
                "scan {}, {{STARTROW => {}}}",
                ruby_single_quoted(table),
                hbase_string(self.start())
            ),
        }
    }

    /// The `cbt read` command that reads this range of `table` (`end` is
    /// exclusive, as here). A bound holding `0x00`, which no command-line
    /// argument can carry, is an error rather than a command that reads
    /// another range.
    pub fn cbt(&self, table: &str) -> Result<String, UnrenderableKey> {
        self.cbt_read(table, "")
    }

    /// [`cbt`](Self::cbt) reading the range from its end: the same
    /// `[start, end)`, last key first (`reversed=true`).
    ///
    /// ```
    /// use rowkey::scan::ScanRange;
    /// let r = ScanRange::<8>::with_prefix(b"ab").unwrap();
    /// assert_eq!(r.cbt_reversed("t")?, "cbt read t reversed=true $'start=ab' $'end=ac'");
    /// # Ok::<(), rowkey::UnrenderableKey>(())
    /// ```
    pub fn cbt_reversed(&self, table: &str) -> Result<String, UnrenderableKey> {
        self.cbt_read(table, "reversed=true ")
    }

    fn cbt_read(&self, table: &str, flags: &str) -> Result<String, UnrenderableKey> {
        let mut cmd = format!(
            "cbt read {} {flags}{}",
            shell_word("", table)?,
            cbt_arg("start", self.start())?
        );
        if let Some(stop) = self.stop() {
            cmd.push(' ');
            cmd.push_str(&cbt_arg("end", stop)?);
        }
        Ok(cmd)
    }
}

impl<const N: usize> fmt::Debug for ScanRange<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScanRange")
            .field("start", &KeyDisplay(self.start()))
            .field("stop", &self.stop().map(KeyDisplay))
            .finish()
    }
}

/// `[start, stop)` with keys as `toStringBinary` shows them.
impl<const N: usize> fmt::Display for ScanRange<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.stop() {
            Some(stop) => write!(f, "[{}, {})", KeyDisplay(self.start()), KeyDisplay(stop)),
            None => write!(f, "[{}, end)", KeyDisplay(self.start())),
        }
    }
}

/// A [`ScanRange`] as a backwards scan sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReversedRange<'a> {
    /// Where the scan starts, exclusive (`None`: the end of the table).
    pub high: Option<&'a [u8]>,
    /// Where it ends, inclusive.
    pub low: &'a [u8],
}

/// The first key after every key that starts with `prefix` (increment the
/// last byte that is not `0xFF`, drop what follows); `None` when there is
/// none (all bytes `0xFF`, or no bytes).
///
/// ```
/// use rowkey::scan::prefix_successor;
/// assert_eq!(prefix_successor(b"ab"), Some(b"ac".to_vec()));
/// assert_eq!(prefix_successor(b"a\xFF\xFF"), Some(b"b".to_vec()));
/// assert_eq!(prefix_successor(b"\xFF"), None);
/// ```
pub fn prefix_successor(prefix: &[u8]) -> Option<Vec<u8>> {
    let end = prefix.iter().rposition(|&b| b != 0xFF)?;
    let mut v = prefix[..=end].to_vec();
    v[end] += 1;
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::fit::{fit_end, fit_start};
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn successor_bounds_exactly_the_prefixed_keys(
            prefix in proptest::collection::vec(prop_oneof![Just(0u8), Just(0xFE), Just(0xFF), any::<u8>()], 0..5),
            key in proptest::collection::vec(prop_oneof![Just(0u8), Just(0xFF), any::<u8>()], 0..7),
        ) {
            let r = ScanRange::<16>::with_prefix(&prefix).unwrap();
            prop_assert_eq!(r.contains(&key), key.starts_with(&prefix));
        }
    }

    proptest! {
        /// A cut bound keeps exactly the values a field can hold.
        #[test]
        fn fitted_bounds_keep_the_same_values(
            bound in proptest::collection::vec(prop_oneof![Just(0u8), Just(b'a'), Just(b'b'), Just(0xFF)], 0..6),
            value in proptest::collection::vec(prop_oneof![Just(0u8), Just(b'a'), Just(b'b'), Just(0xFF)], 0..4),
            incl: bool,
        ) {
            use core::ops::{Bound, RangeBounds};
            let max = 3;
            prop_assume!(value.len() <= max);
            let b = bound.as_slice();
            let raw = if incl { Bound::Included(b) } else { Bound::Excluded(b) };
            let v = value.as_slice();
            let lo = (raw, Bound::Unbounded);
            let lo_fit = (fit_start(raw, max), Bound::Unbounded);
            prop_assert_eq!(lo.contains(&v), lo_fit.contains(&v));
            let hi = (Bound::Unbounded, raw);
            let hi_fit = (Bound::Unbounded, fit_end(raw, max));
            prop_assert_eq!(hi.contains(&v), hi_fit.contains(&v));
        }
    }

    #[test]
    fn renders() {
        let r = ScanRange::<8>::with_prefix(b"1_\x01").unwrap();
        assert_eq!(
            r.hbase_shell("t"),
            r#"scan 't', {STARTROW => "1_\x01", STOPROW => "1_\x02"}"#
        );
        assert_eq!(
            r.cbt("t").unwrap(),
            r"cbt read t $'start=1_\x01' $'end=1_\x02'"
        );
        let nul = ScanRange::<8>::with_prefix(b"x\x00\x01").unwrap();
        assert_eq!(nul.cbt("t").unwrap_err().tool, "cbt");
        assert_eq!(r.to_string(), r"[1_\x01, 1_\x02)");
        assert_eq!(
            format!("{r:?}"),
            r#"ScanRange { start: "1_\x01", stop: Some("1_\x02") }"#
        );
        let open = ScanRange::<4>::with_prefix(b"\xFF").unwrap();
        assert_eq!(open.hbase_shell("t"), r#"scan 't', {STARTROW => "\xFF"}"#);
        assert_eq!(open.reverse().high, None);
    }
}
