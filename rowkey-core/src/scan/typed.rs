//! [`TypedScan`]: a typed scan in progress, the value `Key::scan()` and
//! every step that fixes a field return; and [`Whole`], its state once
//! every field is set.
//!
//! The derive generates one small struct per key field, whose one public
//! field is that field's [`Step`](super::Step). A `TypedScan` wraps the
//! current one and dereferences to it, so `.month` names the next field;
//! the methods every state shares (`plan`, `with_max_ranges`,
//! `in_bucket`, `key`), `Clone` and `Debug` are written here once, not
//! generated per state: what a key costs to compile is one struct and one
//! description per field.

use super::step::{ScanKey, WholeKeyIn};
use super::{HasBuckets, HasWholeKey, ScanField, ScanPlan, ScanQuery, ScanState};
use crate::{EncodeError, KeyBuf};
use core::fmt;
use core::marker::PhantomData;
use core::ops::Deref;

/// A typed scan in progress: the fields fixed so far, and (through
/// `Deref`) the next field's [`Step`](super::Step).
///
/// `S` is the state the derive generates for the next field
/// (`SpendScan1` once `Spend`'s first field is fixed), or [`Whole`] when
/// every field is. `N` is the bytes of a range bound (`Key::MAX_LEN + 1`)
/// and `M` what the salt remembers.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Spend<'a> {
///     #[text(width = 6)]
///     month: u32,
///     #[pad(width = 10, fill = 0x01, align = left)]
///     user: &'a str,
///     #[desc_ts]
///     at_ms: i64,
/// }
///
/// let december = Spend::scan().month.eq(202112);
/// // Every key of December; or go on with the next field.
/// assert_eq!(december.plan()?.single().unwrap().start(), b"202112");
/// let zhang_since = december.user.eq("zhangsan").at_ms.since(1_638_316_800_000)?;
/// // Every field set: one key.
/// let one = Spend::scan().month.eq(202112).user.eq("zhangsan").at_ms.eq(0);
/// assert_eq!(one.key()?.len(), 6 + 10 + 8);
/// assert!(one.plan()?.contains(&one.key()?));
/// # let _ = zhang_since;
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
///
/// A step is borrowed from its `TypedScan`: to use one field's step more
/// than once, keep the scan (`let scan = Spend::scan();`, then
/// `scan.month.eq(..)` as often as needed), or clone it.
pub struct TypedScan<S, const N: usize, const M: usize> {
    state: S,
}

impl<S: ScanState<N, M>, const N: usize, const M: usize> TypedScan<S, N, M> {
    /// The scan over query `q`. Generated code only.
    #[doc(hidden)]
    #[inline]
    pub fn __new(q: ScanQuery<N, M>) -> Self {
        TypedScan {
            state: S::resume(q),
        }
    }

    /// The plan of the query so far: every key whose fixed fields are as
    /// fixed (every key, in every bucket, before any field is); with every
    /// field fixed, the range of exactly that key (in every bucket it may
    /// be in).
    pub fn plan(&self) -> Result<ScanPlan<N>, EncodeError> {
        let q = self.state.query();
        if S::WHOLE {
            q.point()
        } else {
            q.prefix()
        }
    }

    /// Raises (or lowers) the cap on the ranges an IN-list plan may have
    /// ([`DEFAULT_MAX_RANGES`](super::DEFAULT_MAX_RANGES)).
    pub fn with_max_ranges(mut self, max: usize) -> Self {
        self.state.query_mut().set_max_ranges(max);
        self
    }

    /// Scans only salt bucket `bucket`: for a custom hash, which the
    /// builder cannot compute from the fields set, when the caller can (a
    /// bucket outside `0..N` makes `plan()` an error). The bucket is
    /// trusted: a wrong one finds none of the rows. Salted keys only.
    pub fn in_bucket(mut self, bucket: u32) -> Self
    where
        S::BucketRule: HasBuckets,
    {
        self.state.query_mut().pin_bucket(bucket);
        self
    }

    /// The whole key, salt bucket included, once every field is fixed
    /// with `eq`: a point get.
    pub fn key(&self) -> Result<KeyBuf<N>, EncodeError>
    where
        S::KeyRule: HasWholeKey,
    {
        self.state.query().key()
    }
}

impl<S, const N: usize, const M: usize> Deref for TypedScan<S, N, M> {
    type Target = S;

    #[inline]
    fn deref(&self) -> &S {
        &self.state
    }
}

impl<S: ScanState<N, M>, const N: usize, const M: usize> Clone for TypedScan<S, N, M> {
    fn clone(&self) -> Self {
        TypedScan::__new(self.state.query().clone())
    }
}

impl<S: ScanState<N, M>, const N: usize, const M: usize> fmt::Debug for TypedScan<S, N, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedScan")
            .field(
                "prefix",
                &crate::KeyDisplay(self.state.query().first().bytes()),
            )
            .field("whole", &S::WHOLE)
            .finish_non_exhaustive()
    }
}

/// The state of a [`TypedScan`] once every field is set; `L` is the last
/// field's state. It has no fields: `plan()` and `key()` finish it.
pub struct Whole<L, const N: usize, const M: usize> {
    q: ScanQuery<N, M>,
    last: PhantomData<fn() -> L>,
}

impl<L, K, Mo, const N: usize, const M: usize> ScanState<N, M> for Whole<L, N, M>
where
    L: ScanField<N, M, StepField = super::Step<L, K, N, M, Mo>>,
    K: ScanKey,
    K::WholeKeyRule: WholeKeyIn<Mo>,
{
    const WHOLE: bool = true;
    type BucketRule = K::BucketRule;
    type KeyRule = <K::WholeKeyRule as WholeKeyIn<Mo>>::Rule;

    #[inline]
    fn resume(q: ScanQuery<N, M>) -> Self {
        Whole {
            q,
            last: PhantomData,
        }
    }

    #[inline]
    fn query(&self) -> &ScanQuery<N, M> {
        &self.q
    }

    #[inline]
    fn query_mut(&mut self) -> &mut ScanQuery<N, M> {
        &mut self.q
    }
}

impl<L, const N: usize, const M: usize> fmt::Debug for Whole<L, N, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Whole")
            .field("key", &crate::KeyDisplay(self.q.first().bytes()))
            .finish_non_exhaustive()
    }
}
