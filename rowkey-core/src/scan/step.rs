//! [`Step`]: one field of a typed scan, written once here for every key.
//!
//! `#[derive(RowKey)]` gives each key field a small state struct whose one
//! public field, named after the key field, is a `Step`; `Key::scan()`
//! returns a [`TypedScan`] of the first, which dereferences to it:
//! `Spend::scan().month` is the step of `month`. A step either fixes its
//! field and moves on to a `TypedScan` of the next ([`eq`](Step::eq),
//! [`is_in`](Step::is_in), [`any`](Step::any)), or finishes the query on
//! it ([`starts_with`], [`range`], [`between`], [`since`], [`until`],
//! [`latest`]). Because the state after `month` only has a `user` field,
//! fields are set in key order and once, and the compiler says which
//! field comes next:
//!
//! ```compile_fail
//! # use rowkey::RowKey;
//! # #[derive(RowKey)]
//! # struct Spend<'a> {
//! #     #[text(width = 6)] month: u32,
//! #     #[pad(width = 10, fill = 0x01, align = left)] user: &'a str,
//! #     #[desc_ts] at_ms: i64,
//! # }
//! // error[E0609]: no field `user` on type `TypedScan<SpendScan0<'_, 25>, 25, 0>`
//! //   = note: available field is: `month`
//! let _ = Spend::scan().user.eq("zhangsan");
//! ```
//!
//! The derive describes each field to the step with a `ScanField` impl (its
//! value type, its codec and what the salt learns from it); the finishers
//! a field's encoding cannot answer fail to compile with the reason, as a
//! type in this module (see [`Available`]).
//!
//! [`starts_with`]: Step::starts_with
//! [`range`]: Step::range
//! [`between`]: Step::between
//! [`since`]: Step::since
//! [`until`]: Step::until
//! [`latest`]: Step::latest

use super::field_codec::{InItem, ScanCodec, ScanFieldInfo};
use super::{
    Available, FiltersFollowAFreeField, FreeAllowed, LeavesFree, MergesInOrder, Ordered,
    ScanBuilder, ScanPlan, ScanQuery, TypedScan, Yes,
};
use crate::{EncodeError, EncodeErrorKind};
use core::fmt;
use core::marker::PhantomData;
use core::ops::{Bound, RangeBounds};

/// The next field of a typed scan: fix it, or finish the query on it.
///
/// `S` is the state the derive generates for the field (it describes the
/// field and names the state after it), `K` the key struct, `N` the bytes
/// of a range bound (`Key::MAX_LEN + 1`) and `M` what the salt remembers.
/// Fixing the field gives a [`TypedScan`] of the next field.
/// Every finisher returns the [`ScanPlan`] of the query, or the
/// [`EncodeError`] of a value the field cannot hold.
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
/// // Fields are named in key order; `eq` fixes one and moves to the next.
/// let plan = Spend::scan().month.eq(202112).user.eq("zhangsan").at_ms.latest(1)?;
/// assert_eq!(plan.limit(), Some(1));
/// // `plan()` on any state: every key with the fields fixed so far.
/// let december = Spend::scan().month.eq(202112).plan()?;
/// assert_eq!(december.single().unwrap().start(), b"202112");
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
pub struct Step<S, K, const N: usize, const M: usize, Mode = Yes> {
    pub(super) q: ScanQuery<N, M>,
    next: PhantomData<StepOf<S, K, Mode>>,
}

/// What a [`Step`] is of, as a type: its state, its key and its mode.
type StepOf<S, K, Mode> = fn() -> (S, K, Mode);

impl<S, K, const N: usize, const M: usize, Mode> Clone for Step<S, K, N, M, Mode> {
    fn clone(&self) -> Self {
        Step {
            q: self.q.clone(),
            next: PhantomData,
        }
    }
}

impl<S, K, const N: usize, const M: usize, Mode> fmt::Debug for Step<S, K, N, M, Mode> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Step")
            .field("prefix", &crate::KeyDisplay(self.q.first().bytes()))
            .finish_non_exhaustive()
    }
}

/// A scan state: a state struct the derive generates (through
/// [`ScanField`]) or the whole key ([`Whole`](super::Whole)), rebuilt from
/// the query so far. What [`TypedScan`](super::TypedScan) needs of the
/// state it wraps. Not for users.
#[doc(hidden)]
pub trait ScanState<const N: usize, const M: usize>: Sized {
    /// Every field is set: `plan()` is the range of one key.
    const WHOLE: bool;
    /// [`Yes`](super::Yes) on a salted key (`in_bucket` applies), or why not.
    type BucketRule;
    /// [`Yes`](super::Yes) when `key()` gives one whole key, or why not.
    type KeyRule;
    /// The state over query `q`.
    fn resume(q: ScanQuery<N, M>) -> Self;
    /// The query so far.
    fn query(&self) -> &ScanQuery<N, M>;
    /// The query so far, to change.
    fn query_mut(&mut self) -> &mut ScanQuery<N, M>;
}

impl<T, K, Mo, const N: usize, const M: usize> ScanState<N, M> for T
where
    T: ScanField<N, M, StepField = Step<T, K, N, M, Mo>>,
    K: ScanKey,
{
    const WHOLE: bool = false;
    type BucketRule = K::BucketRule;
    type KeyRule = super::NotEveryFieldIsSet;

    #[inline]
    fn resume(q: ScanQuery<N, M>) -> Self {
        super::state_cast::into_state(Step::<T, K, N, M, Mo> {
            q,
            next: PhantomData,
        })
    }

    #[inline]
    fn query(&self) -> &ScanQuery<N, M> {
        super::state_cast::query_of(self)
    }

    #[inline]
    fn query_mut(&mut self) -> &mut ScanQuery<N, M> {
        super::state_cast::query_of_mut(self)
    }
}

/// How the derive describes one key field to [`Step`]: implemented on the
/// state struct whose one public field is that field's step. It names the
/// field's codec and the state that comes next, and says which finishers
/// its encoding answers. Everything else (its name, width, separator,
/// codec options) is read from the key's layout, and the key and the mode
/// are the step's own parameters. Not for users.
///
/// No item has a bound: a bound is a proof the compiler redoes for every
/// field of every key; the steps that need one say so. Each item is work
/// for the compiler in every crate that defines keys, once per field, so
/// there are few: the state after the field is one generic type for every
/// mode (`Next`), and the three rules are one tuple (`Rules`).
///
/// # Safety
///
/// `Self` is `#[repr(transparent)]` with exactly one field, of type
/// `Self::StepField`: [`ScanState`] requires that to be `Step<Self, K, N,
/// M, Mode>` and turns such a step into `Self` and back.
#[doc(hidden)]
pub unsafe trait ScanField<const N: usize, const M: usize>: Sized {
    /// The type of the struct's one field, as the struct declares it:
    /// [`ScanState`] requires it to be a `Step<Self, K, N, M, Mode>` of
    /// this crate, so a path that names another `Step` (`#[rowkey(crate =
    /// "..")]` pointing elsewhere) does not compile.
    type StepField;
    /// The field's index in the key.
    const DEPTH: usize;
    /// How the field is written: a
    /// [`ScanCodec`](super::field_codec::ScanCodec).
    type Codec;
    /// What the salt or hash prefix learns from the field:
    /// [`NoLearn`], or the state itself (a [`ScanLearn`]).
    type Learn;
    /// The state after the field, in mode `To`: the next field's, or the
    /// whole key. `eq` goes on in the step's mode, `any` in
    /// [`FiltersFollowAFreeField`](super::FiltersFollowAFreeField),
    /// `is_in` in the mode an IN-list leaves ([`InListAfter`]).
    type Next<To>;
    /// `(free, prefix, range)`: [`Yes`](super::Yes), or why the field
    /// cannot be left free (`any`), answer `starts_with`, answer ranges.
    type Rules;
}

/// A field's three rules, `(free, prefix, range)`, as [`ScanField::Rules`]
/// names them. Not for users.
#[doc(hidden)]
pub trait ScanRules {
    /// [`Yes`](super::Yes), or why the field cannot be left free.
    type Free;
    /// [`Yes`](super::Yes), or why `starts_with` does not apply.
    type Prefix;
    /// [`Yes`](super::Yes), or why ranges do not apply.
    type Range;
}

impl<F, P, R> ScanRules for (F, P, R) {
    type Free = F;
    type Prefix = P;
    type Range = R;
}

/// The mode after an IN-list on a field, in mode `Mo`: by the field's
/// free rule, a field of one width keeps the mode's merge
/// ([`ScanMode::AfterInList`](super::ScanMode)); one whose width varies
/// has no merge order. Not for users.
#[doc(hidden)]
pub trait InListAfter<Mo> {
    /// The mode the next field is in.
    type Mode;
}

impl<Mo: super::ScanMode> InListAfter<Mo> for Yes {
    type Mode = Mo::AfterInList;
}

impl<Mo> InListAfter<Mo> for super::VariableWidthFieldsCannotBeLeftFree {
    type Mode = super::VariableWidthInListsHaveNoMergeOrder;
}

/// What the derive says of a whole key's scans, once per key. Not for
/// users.
#[doc(hidden)]
pub trait ScanKey: crate::RowKey {
    /// [`Yes`](super::Yes) on a salted key, or why `in_bucket` does not
    /// apply.
    type BucketRule;
    /// Once every field is set: [`ModeDecides`] when `key()` gives one key
    /// in a state whose mode allows it, or why never.
    type WholeKeyRule;
}

/// A key whose buckets the builder computes: whether `key()` applies is
/// the state's mode's to say ([`ScanMode::Rule`](super::ScanMode)).
#[doc(hidden)]
pub struct ModeDecides;

/// Whether `key()` applies in mode `Mode`. Not for users.
#[doc(hidden)]
pub trait WholeKeyIn<Mode> {
    /// [`Yes`](super::Yes), or why not.
    type Rule;
}

impl<Mode: super::ScanMode> WholeKeyIn<Mode> for ModeDecides {
    type Rule = Mode::Rule;
}

impl<Mode> WholeKeyIn<Mode> for super::CustomSaltHashesAreNotComputedHere {
    type Rule = super::CustomSaltHashesAreNotComputedHere;
}

/// What the salt or hash prefix learns once a field whose steps take `V`
/// is written: generated for the fields a bucket or hash is computed from
/// (for all `V` but on a `group_by` field, whose group is computed from
/// its value). It names no codec, so a field type that lacks a trait the
/// codec needs is one error at the field (from the encoder), not a second
/// one here. Not for users.
#[doc(hidden)]
pub trait ScanLearn<V: ?Sized, const N: usize, const M: usize> {
    /// The field was written at `start..b.position()`.
    fn learn(b: &mut ScanBuilder<N, M>, start: usize, value: &V);
}

/// A field no prefix learns from.
#[doc(hidden)]
pub struct NoLearn;

impl<V: ?Sized, const N: usize, const M: usize> ScanLearn<V, N, M> for NoLearn {
    #[inline]
    fn learn(_: &mut ScanBuilder<N, M>, _: usize, _: &V) {}
}

/// The field's value type.
type ValueOf<'v, S, const N: usize, const M: usize> =
    <<S as ScanField<N, M>>::Codec as ScanCodec>::Value<'v>;

/// What `starts_with` takes on field `S`.
type PrefixOf<S, const N: usize, const M: usize> =
    <<S as ScanField<N, M>>::Codec as ScanCodec>::Prefix;

/// [`Yes`](super::Yes), or why field `S` cannot be left free.
type FreeRuleOf<S, const N: usize, const M: usize> =
    <<S as ScanField<N, M>>::Rules as ScanRules>::Free;

/// [`Yes`](super::Yes), or why `starts_with` does not apply to field `S`.
type PrefixRuleOf<S, const N: usize, const M: usize> =
    <<S as ScanField<N, M>>::Rules as ScanRules>::Prefix;

/// [`Yes`](super::Yes), or why ranges do not apply to field `S`.
type RangeRuleOf<S, const N: usize, const M: usize> =
    <<S as ScanField<N, M>>::Rules as ScanRules>::Range;

/// The mode after an IN-list on field `S` in mode `Mo`.
type InModeOf<S, Mo, const N: usize, const M: usize> =
    <FreeRuleOf<S, N, M> as InListAfter<Mo>>::Mode;

/// [`Yes`](super::Yes) when field `S` is a `#[desc_ts]` field, or why
/// `latest` does not apply.
type LatestRuleOf<S, const N: usize, const M: usize> =
    <<S as ScanField<N, M>>::Codec as ScanCodec>::LatestRule;

/// Fixes field `S` to `value` on one prefix: its bytes, what the salt
/// learns, the separator after it.
fn set<S, K, const N: usize, const M: usize>(
    b: &mut ScanBuilder<N, M>,
    value: &ValueOf<'_, S, N, M>,
) where
    S: ScanField<N, M>,
    K: crate::RowKey,
    S::Codec: ScanCodec,
    S::Learn: for<'v> ScanLearn<ValueOf<'v, S, N, M>, N, M>,
{
    let f = ScanFieldInfo::of::<K>(S::DEPTH);
    if !f.prefix_free() && b.has_free() {
        // A fuzzy filter matches keys that start with its pattern, and a
        // raw last field has no end of its own to pin.
        let at = b.position();
        b.fail(EncodeError::new(
            b.key_name(),
            f.name(),
            at,
            crate::EncodeErrorKind::Invalid(
                "after a field left free, a raw last field cannot be matched exactly (a fuzzy filter matches keys that start with its pattern): leave it free, or give it a terminated or padded encoding",
            ),
        ));
    }
    let start = b.position();
    b.note_width(f.name(), f.layout.fixed_len.is_some());
    S::Codec::set(b, &f, value);
    S::Learn::learn(b, start, value);
    b.note_fixed(f.name());
    if let Some(sep) = f.separator_after() {
        b.write(|w| w.put_byte(sep));
    }
}

impl<S, K, const N: usize, const M: usize, Mode> Step<S, K, N, M, Mode>
where
    S: ScanField<N, M>,
    K: crate::RowKey,
    S::Codec: ScanCodec,
    S::Learn: for<'v> ScanLearn<ValueOf<'v, S, N, M>, N, M>,
    S::Rules: ScanRules,
{
    fn field(&self) -> ScanFieldInfo {
        ScanFieldInfo::of::<K>(S::DEPTH)
    }

    /// Fixes the field to `value` and moves on to the next field (or, for
    /// the last field, to the whole key: `plan()` is then the range of
    /// exactly that key and `key()` the key itself).
    ///
    /// Text and bytes fields take `&str` / `&[u8]`; other fields take a
    /// value of their type. A value the field cannot hold (too long, too
    /// many digits, a separator inside) makes the finished plan an error.
    ///
    /// ```
    /// # use rowkey::RowKey;
    /// # #[derive(RowKey)]
    /// # struct Spend<'a> {
    /// #     #[text(width = 6)] month: u32,
    /// #     #[pad(width = 10, fill = 0x01, align = left)] user: &'a str,
    /// #     #[desc_ts] at_ms: i64,
    /// # }
    /// let plan = Spend::scan().month.eq(202112).user.eq("zhangsan").plan()?;
    /// assert_eq!(plan.single().unwrap().start(), b"202112\x01\x01zhangsan");
    /// assert!(Spend::scan().month.eq(1_000_000).plan().is_err()); // 7 digits
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn eq(&self, value: ValueOf<'_, S, N, M>) -> TypedScan<S::Next<Mode>, N, M>
    where
        S::Next<Mode>: ScanState<N, M>,
    {
        let mut q = self.q.clone();
        q.each(|b| set::<S, K, N, M>(b, &value));
        TypedScan::__new(q)
    }

    /// Fixes the field to each of `values` in turn: the query goes on
    /// with the next field for every value (another `is_in`, `eq`, a
    /// range or a prefix), and the plan is the union of every
    /// combination's ranges (the cross product of the lists), per salt
    /// bucket, sorted by stored key, duplicates dropped and touching
    /// ranges joined. A combination that fixes every salt input reads its
    /// one bucket. No values match nothing.
    ///
    /// A query needs at most 10,000 ranges ([`DEFAULT_MAX_RANGES`]); more
    /// is a [`TooManyRanges`](crate::EncodeErrorKind::TooManyRanges) error,
    /// never a wider scan: `Key::scan().with_max_ranges(n)` raises the cap.
    /// Rows come back in key order (`StoreExt::query` merges the ranges), or
    /// in the order of the fields after the list with
    /// [`ordered_after_in_lists`](ScanPlan::ordered_after_in_lists) (which
    /// [`latest(n)`](Step::latest) uses: the newest over every
    /// combination). After an IN-list no field may be left free (`any`).
    ///
    /// [`DEFAULT_MAX_RANGES`]: super::DEFAULT_MAX_RANGES
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Reading {
    ///     #[salt(buckets = 16, binary)]
    ///     device: u32,
    ///     metric: u16,
    ///     #[desc_ts]
    ///     at_ms: i64,
    /// }
    ///
    /// // Two devices, three metrics each, one hour: six ranges, each in
    /// // its device's bucket.
    /// let plan = Reading::scan()
    ///     .device.is_in([7, 9])
    ///     .metric.is_in([1, 2, 3])
    ///     .at_ms.between(3_600_000, 7_200_000)?;
    /// assert_eq!(plan.len(), 6);
    /// let key = |device, metric| Reading { device, metric, at_ms: 3_600_000 }.to_vec().unwrap();
    /// assert!(plan.contains(&key(9, 3)) && !plan.contains(&key(8, 3)) && !plan.contains(&key(9, 4)));
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    ///
    /// Items are anything that borrows as the field's type, or for a text
    /// or bytes field anything `AsRef<str>` / `AsRef<[u8]>`:
    ///
    /// ```
    /// use rowkey::RowKey;
    /// #[derive(RowKey)]
    /// struct Trip { city: u16, #[pad(width = 24)] driver: String, at: u64 }
    ///
    /// let drivers: Vec<String> = vec!["ana".into(), "bo".into()];
    /// let cities: Vec<u16> = vec![3, 4];
    /// let plan = Trip::scan().city.is_in(cities.iter()).driver.is_in(drivers.iter()).plan()?;
    /// assert_eq!(plan.len(), 4);
    /// let same = Trip::scan().city.is_in([3, 4]).driver.is_in(["ana", "bo"]).plan()?;
    /// assert_eq!(plan, same);
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    pub fn is_in<I>(&self, values: I) -> TypedScan<S::Next<InModeOf<S, Mode, N, M>>, N, M>
    where
        I: IntoIterator,
        I::Item: InItem<S::Codec>,
        Mode: Ordered,
        FreeRuleOf<S, N, M>: InListAfter<Mode>,
        S::Next<InModeOf<S, Mode, N, M>>: ScanState<N, M>,
    {
        let mut q = self.q.clone();
        q.cross(self.field().name(), values, |b, v| {
            v.with_value(|v| set::<S, K, N, M>(b, v))
        });
        TypedScan::__new(q)
    }

    /// A filtered scan: the server reads every row under the fields fixed
    /// before this one (every row of each bucket, when this is the first
    /// field after the salt) and keeps those whose key matches the
    /// pattern. Cheap when the fields before it narrow the range; a scan
    /// of the whole table when none do (see [`ScanPlan::explain`]).
    ///
    /// Leaves the field free: any value matches. The query goes on with
    /// the next field (`eq`, `any`, or a range that filters the rows read:
    /// see [`range`](Step::range)); the filter is a fuzzy key
    /// (HBase `FuzzyRowFilter`, Bigtable `RowKeyRegexFilter`; see
    /// [`FuzzyKey`](super::FuzzyKey)), applied by the stores.
    ///
    /// Only a field whose every value has the same width can be left free
    /// (the fields after it need a fixed offset): not escaped or raw text
    /// and bytes (give them `#[pad(width = N)]`), and not `Option`s.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey)]
    /// struct Event {
    ///     #[salt(buckets = 8, binary)]
    ///     user: u32,
    ///     status: u8,
    ///     seq: u16,
    /// }
    ///
    /// // Status 2 for any user: every bucket, the user's bytes free.
    /// let plan = Event::scan().user.any().status.eq(2).plan()?;
    /// assert_eq!(plan.len(), 8);
    /// assert!(plan.contains(&Event { user: 9, status: 2, seq: 1 }.to_vec()?));
    /// assert!(!plan.contains(&Event { user: 9, status: 3, seq: 1 }.to_vec()?));
    /// let fuzzy = plan.fuzzy().unwrap();
    /// assert_eq!(fuzzy.bigtable_regex(), r"(?s)^\C\C\C\C\C\x02\C*");
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    pub fn any(&self) -> TypedScan<S::Next<FiltersFollowAFreeField>, N, M>
    where
        FreeRuleOf<S, N, M>: LeavesFree,
        Mode: FreeAllowed,
        S::Next<FiltersFollowAFreeField>: ScanState<N, M>,
    {
        let mut q = self.q.clone();
        let f = self.field();
        q.each(|b| {
            b.leave_free(f.name(), f.layout.fixed_len);
            if let Some(sep) = f.separator_after() {
                b.write(|w| w.put_byte(sep));
            }
        });
        TypedScan::__new(q)
    }

    /// Every key whose field starts with `prefix`, as stored: the leading
    /// digits of a `#[text]` integer, the leading bytes of a text or bytes
    /// field.
    ///
    /// A prefix longer than the field can hold starts no value: the plan
    /// is empty, as a range bound beyond the field is cut to it. A prefix
    /// no value can start with for another reason (a non-digit in a
    /// `#[text]` integer, the separator) is an error naming the field.
    ///
    /// Not available where the stored bytes of a value do not start with
    /// those of its prefix (binary integers, left padding, reversed or
    /// descending escaped text, `Option`s but a Phoenix column's, hashed
    /// fields, a Phoenix column that is not text): the compile error
    /// names the reason.
    ///
    /// ```
    /// # use rowkey::RowKey;
    /// #[derive(RowKey)]
    /// struct Page {
    ///     #[max_len(64)] host: String,
    ///     #[max_len(256)] path: String,
    /// }
    /// let plan = Page::scan().host.eq("example.com").path.starts_with("/blog/")?;
    /// let range = plan.single().unwrap();
    /// assert!(range.contains(&Page { host: "example.com".into(), path: "/blog/a".into() }.to_vec()?));
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    pub fn starts_with(&self, prefix: &PrefixOf<S, N, M>) -> Result<ScanPlan<N>, EncodeError>
    where
        PrefixRuleOf<S, N, M>: Available,
        Mode: Ordered,
    {
        let f = self.field();
        match self.q.plan(|b| S::Codec::starts_with(b, &f, prefix)) {
            Err(e) if e.field() == f.name() && longer_than_field(e.kind()) => Ok(ScanPlan::empty()),
            plan => plan,
        }
    }

    /// Every key whose field lies in `range`, any Rust range (`a..b`,
    /// `a..=b`, `a..`, `..b`, `..`), in the field's value order: for a
    /// `#[desc]` or `#[desc_ts]` field the plan's bounds are swapped to
    /// match the stored bytes, and newer rows come first.
    ///
    /// Text and bytes fields take ranges of `&str` / `&[u8]`. A bound
    /// longer than the field can hold is cut to it with the inclusivity
    /// that keeps exactly the same values (on a Phoenix column, an error); a `#[text]` bound with too many
    /// digits is above every value, a negative one below every value.
    /// Bounds in the wrong order (`5..3`) match nothing, as Rust's ranges.
    ///
    /// A `#[text(format)]` date keeps the rows whose stored value, the one
    /// decode returns, is in the range. A text stands for a span of values
    /// (`%Y-%m`: a month) and decodes to its start, so a bound finer than
    /// the format, inside a span, is above that text's value: as a lower
    /// bound it leaves the text out, as an upper bound it takes it in,
    /// inclusive or not. `until(2021-12-15)` on `%Y-%m` keeps `2021-12`;
    /// `range(12:00:00.5..)` on `%F %T` starts at `12:00:01`. A format
    /// that leaves out larger units (`-%d %H:%M:%S`) compares only the
    /// units it writes. `eq` keeps the rows stored under the value's own
    /// text.
    ///
    /// Not available where the stored bytes do not sort like the values
    /// (left padding, reversed text, separator-joined text, right padding
    /// with a fill other than `0x00`, `Option`s but a Phoenix column's, hashed
    /// fields; a Phoenix range holds no NULL, as its `WHERE` does not).
    ///
    /// After a field left free (`any()`), a range (and `between`, `since`,
    /// `until`) is a filter: the plan reads the free field's whole extent
    /// (under the fields fixed before it) and keeps the rows whose field
    /// lies in the range, on the server where the store can (Bigtable's
    /// `RowKeyRegexFilter`), else as the rows arrive (HBase over Thrift 1,
    /// whose filter language has no comparison at an offset).
    /// [`ScanPlan::explain`] says what it reads and what it keeps.
    ///
    /// ```
    /// # use rowkey::RowKey;
    /// #[derive(RowKey)]
    /// struct Trip<'a> {
    ///     city: u16,
    ///     #[pad(width = 8)]
    ///     driver: &'a str,
    ///     #[desc_ts]
    ///     started: i64,
    /// }
    /// // Every trip of city 3 in one hour, any driver.
    /// let plan = Trip::scan().city.eq(3).driver.any().started.between(3_600_000, 7_200_000)?;
    /// let key = |driver, started| Trip { city: 3, driver, started }.to_vec().unwrap();
    /// assert!(plan.contains(&key("ann", 3_600_000)) && plan.contains(&key("bob", 7_199_999)));
    /// assert!(!plan.contains(&key("ann", 7_200_000)) && !plan.contains(&key("bob", 5)));
    /// assert!(plan.explain().to_string().contains("and whose started (the key's bytes from byte 10 on) lie in the range"));
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    ///
    /// ```
    /// # use rowkey::RowKey;
    /// # #[derive(RowKey)]
    /// # struct Spend<'a> {
    /// #     #[text(width = 6)] month: u32,
    /// #     #[pad(width = 10, fill = 0x01, align = left)] user: &'a str,
    /// #     #[desc_ts] at_ms: i64,
    /// # }
    /// let q4 = Spend::scan().month.range(202110..=202112)?;
    /// let range = q4.single().unwrap();
    /// assert_eq!((range.start(), range.stop()), (&b"202110"[..], Some(&b"202113"[..])));
    /// assert!(Spend::scan().month.range(202112..202110)?.is_empty());
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    pub fn range<'v, R>(&self, range: R) -> Result<ScanPlan<N>, EncodeError>
    where
        RangeRuleOf<S, N, M>: Available,
        R: RangeBounds<ValueOf<'v, S, N, M>>,
    {
        let (lo, hi) = (range.start_bound(), range.end_bound());
        self.bounded(lo, hi)
    }

    /// The plan of the field between `lo` and `hi`; after a field left
    /// free, a filter on the bytes after the pattern, named after the field.
    fn bounded(
        &self,
        lo: Bound<&ValueOf<'_, S, N, M>>,
        hi: Bound<&ValueOf<'_, S, N, M>>,
    ) -> Result<ScanPlan<N>, EncodeError> {
        let f = self.field();
        let plan = self.q.plan(|b| S::Codec::range(b, &f, lo, hi))?;
        Ok(plan.name_filtered_field(f.name()))
    }

    /// Every key with `lo <= field < hi`: `lo` inclusive, `hi` exclusive,
    /// in the field's value order (as [`range`](Step::range)`(lo..hi)`).
    ///
    /// ```
    /// # use rowkey::RowKey;
    /// # #[derive(RowKey)]
    /// # struct Spend<'a> {
    /// #     #[text(width = 6)] month: u32,
    /// #     #[pad(width = 10, fill = 0x01, align = left)] user: &'a str,
    /// #     #[desc_ts] at_ms: i64,
    /// # }
    /// // One user's December, from the 1st (inclusive) to the 2nd (exclusive).
    /// let day = Spend::scan().month.eq(202112).user.eq("zhangsan")
    ///     .at_ms.between(1_638_316_800_000, 1_638_403_200_000)?;
    /// assert_eq!(day.len(), 1);
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    pub fn between<'v>(
        &self,
        lo: ValueOf<'v, S, N, M>,
        hi: ValueOf<'v, S, N, M>,
    ) -> Result<ScanPlan<N>, EncodeError>
    where
        RangeRuleOf<S, N, M>: Available,
    {
        self.bounded(Bound::Included(&lo), Bound::Excluded(&hi))
    }

    /// Every key with `field >= lo` (inclusive), in the field's value
    /// order (as [`range`](Step::range)`(lo..)`).
    pub fn since<'v>(&self, lo: ValueOf<'v, S, N, M>) -> Result<ScanPlan<N>, EncodeError>
    where
        RangeRuleOf<S, N, M>: Available,
    {
        self.bounded(Bound::Included(&lo), Bound::Unbounded)
    }

    /// Every key with `field < hi` (exclusive), in the field's value order
    /// (as [`range`](Step::range)`(..hi)`).
    pub fn until<'v>(&self, hi: ValueOf<'v, S, N, M>) -> Result<ScanPlan<N>, EncodeError>
    where
        RangeRuleOf<S, N, M>: Available,
    {
        self.bounded(Bound::Unbounded, Bound::Excluded(&hi))
    }

    /// The `n` newest rows under the fields fixed so far, on a
    /// `#[desc_ts]` field: the plan of every key with those fields, limited
    /// to `n` rows (a salted plan reads at most `n` from each bucket and
    /// the merge keeps the first `n`). `latest(0)` is an empty answer, as
    /// [`with_limit(0)`](ScanPlan::with_limit) is: a store's `query`
    /// returns no row and sends no read.
    ///
    /// After an IN-list it is the `n` newest over every combination: the
    /// plan is [ordered after its IN-lists](ScanPlan::ordered_after_in_lists).
    /// That needs the IN-listed fields to have one width (the fields after
    /// the lists must start at one byte in every key): after `is_in` on
    /// escaped or raw text, bytes or an `Option`, `latest` does not
    /// compile; give such a field `#[pad(width = N)]`.
    ///
    /// ```
    /// # use rowkey::RowKey;
    /// # #[derive(RowKey)]
    /// # struct Spend<'a> {
    /// #     #[text(width = 6)] month: u32,
    /// #     #[pad(width = 10, fill = 0x01, align = left)] user: &'a str,
    /// #     #[desc_ts] at_ms: i64,
    /// # }
    /// let newest = Spend::scan().month.eq(202112).user.eq("zhangsan").at_ms.latest(1)?;
    /// assert_eq!(newest.limit(), Some(1));
    /// // The 20 newest of two users, merged newest first.
    /// let both = Spend::scan().month.eq(202112).user.is_in(["lisi", "zhangsan"]).at_ms.latest(20)?;
    /// assert_eq!((both.limit(), both.merge_offset()), (Some(20), 16));
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    pub fn latest(&self, n: usize) -> Result<ScanPlan<N>, EncodeError>
    where
        LatestRuleOf<S, N, M>: Available,
        Mode: Ordered + MergesInOrder,
    {
        let plan = self.q.prefix()?;
        let plan = if self.q.is_listed() {
            plan.ordered_after_in_lists()?
        } else {
            plan
        };
        Ok(plan.with_limit(n))
    }
}

/// Whether a prefix was refused only for being longer than the field's
/// values can be.
fn longer_than_field(kind: EncodeErrorKind) -> bool {
    matches!(
        kind,
        EncodeErrorKind::TooLong { .. }
            | EncodeErrorKind::TooManyDigits { .. }
            | EncodeErrorKind::TooManyChars { .. }
    )
}
