//! Why a finisher of a [`Step`](super::Step) does not apply to a field:
//! each finisher requires its rule to be [`Available`]; the derive sets a
//! field's rule to [`Yes`] or to one of the reason types below, so a call
//! the field's encoding cannot answer fails to compile with the reason.

/// Implemented by [`Yes`] only: a finisher whose rule is a reason type
/// instead does not compile, and the message names the reason.
#[diagnostic::on_unimplemented(
    message = "this field cannot be scanned this way: {Self}",
    label = "not available for this field",
    note = "the field's encoding does not support this step (the reason type in `rowkey::scan` says why): set the field exactly with `eq`, or change its encoding"
)]
pub trait Available {}

/// The finisher applies to the field.
#[derive(Debug, Clone, Copy)]
pub enum Yes {}

// Not offered as a hint in the errors: the reason is the message.
#[diagnostic::do_not_recommend]
impl Available for Yes {}

macro_rules! reasons {
    ($($(#[$doc:meta])* $name:ident),* $(,)?) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy)]
        pub enum $name {}
    )*};
}

reasons! {
    /// Left padding puts the fill first, so a value's bytes do not start
    /// with its prefix and longer values sort first.
    LeftPaddedFieldsHaveNoPrefixOrRangeOrder,
    /// Reversed characters or digits keep no order and no prefix.
    ReversedFieldsHaveNoPrefixOrRangeOrder,
    /// A binary integer's bytes are not its digits: use a range instead.
    BinaryFieldsHaveNoTextPrefix,
    /// Inverted escaped bytes: a prefix scan would need the whole value.
    DescendingEscapedFieldsHaveNoPrefix,
    /// A reversed timestamp (`i64::MAX - ts`) has no prefix meaning: use
    /// `between`, `since` or `until`.
    ReversedTimestampsHaveNoPrefix,
    /// Separator-joined text sorts by the separator byte, not by value.
    SeparatorJoinedTextHasNoRangeOrder,
    /// Right padding with a fill other than `0x00` keeps no order.
    PaddedFieldsWithNonZeroFillHaveNoRangeOrder,
    /// The field a hash prefix is computed from is set exactly (the key
    /// starts with its hash).
    HashedFieldsAreSetExactly,
    /// `Option` fields are set exactly.
    OptionalFieldsAreSetExactly,
    /// Only a `#[desc_ts]` field has a latest row first.
    LatestNeedsADescTsField,
    /// A field left free (`any`) needs the same width for every value, so
    /// the fields after it keep their offsets: not escaped or raw text and
    /// bytes, not `Option`s. `#[pad(width = N)]` gives text and bytes one
    /// width.
    VariableWidthFieldsCannotBeLeftFree,
    /// After an IN-list (`is_in`) on a field whose width varies (escaped
    /// or raw text and bytes, an `Option`), the fields after the list
    /// start at a different byte in each combination, so the rows cannot
    /// be merged by them: no `latest(n)` over the list. `#[pad(width = N)]`
    /// gives text and bytes one width.
    VariableWidthInListsHaveNoMergeOrder,
    /// After a field left free (`any`), the later fields filter the rows
    /// the scan reads (a fuzzy filter, and a range on the bytes after it):
    /// `eq`, `any` and ranges (`range`, `between`, `since`, `until`)
    /// follow; no prefix, IN-list or latest, and there is no whole key to
    /// get.
    FiltersFollowAFreeField,
    /// After an IN-list (`is_in`), no field is left free (each combination
    /// would need a fuzzy filter of its own) and there is no one whole key
    /// to get. (`latest(n)` does apply: it merges the combinations newest
    /// first.)
    NoFreeFieldAfterAnInList,
    /// A date, UUID or decimal written as text (`#[text(format = "..")]`,
    /// `#[text]`) is set with `eq` or a range (`between`, `since`,
    /// `until`) of its own type, not a text prefix.
    TextFormsTakeARangeNotAPrefix,
    /// `starts_with` on a Phoenix key column (`#[rowkey(phoenix)]`)
    /// applies to a `VARCHAR` or `CHAR`: other types are set with `eq`
    /// or a range.
    PhoenixPrefixesAreOnVarcharOrChar,
}

/// The scan modes in which a prefix, an IN-list or `latest` may follow:
/// not after a field left free (a range may: it filters the rows read).
#[diagnostic::on_unimplemented(
    message = "this step cannot follow a field left free: {Self}",
    label = "not available after `any()`",
    note = "after a free field the later fields filter the rows read: `eq`, `any` and a range (`range`, `between`, `since`, `until`) can follow it, not a prefix, an IN-list or `latest`"
)]
pub trait Ordered {}

#[diagnostic::do_not_recommend]
impl Ordered for Yes {}
#[diagnostic::do_not_recommend]
impl Ordered for NoFreeFieldAfterAnInList {}
#[diagnostic::do_not_recommend]
impl Ordered for VariableWidthInListsHaveNoMergeOrder {}

/// Implemented by [`Yes`] only (and the modes in which a merge is
/// refused for another reason): the leftover rule of a field whose width
/// varies, so `any()` on it fails to compile naming the fix.
#[diagnostic::on_unimplemented(
    message = "this field cannot be left free (`any()`): {Self}",
    label = "its width varies from value to value",
    note = "the fields after a free field need a fixed offset, so it needs one width for every value: give text and bytes one width with `#[pad(width = N)]` (an `Option` cannot be left free)"
)]
pub trait LeavesFree {}

#[diagnostic::do_not_recommend]
impl LeavesFree for Yes {}

/// The scan modes whose rows can be merged by the fields after the
/// IN-lists (`latest(n)` after `is_in`): not after an IN-list on a field
/// whose width varies.
#[diagnostic::on_unimplemented(
    message = "the rows of this IN-list cannot be merged newest first: {Self}",
    label = "`latest` after `is_in(..)` on a field whose width varies",
    note = "values of different widths put the fields after the list at different bytes in each key, so rows have no common offset to merge by: give the IN-listed field one width with `#[pad(width = N)]`, or query each value on its own"
)]
pub trait MergesInOrder {}

#[diagnostic::do_not_recommend]
impl MergesInOrder for Yes {}
#[diagnostic::do_not_recommend]
impl MergesInOrder for NoFreeFieldAfterAnInList {}
// `latest` is refused after a free field by `Ordered` already: one error.
#[diagnostic::do_not_recommend]
impl MergesInOrder for FiltersFollowAFreeField {}

/// The scan modes in which a field may be left free: not after an
/// IN-list.
#[diagnostic::on_unimplemented(
    message = "a field cannot be left free after an IN-list: {Self}",
    label = "not available after `is_in(..)`",
    note = "each IN-list combination would need a fuzzy filter of its own: fix this field with `eq`, or query each value of the list separately"
)]
pub trait FreeAllowed {}

#[diagnostic::do_not_recommend]
impl FreeAllowed for Yes {}
#[diagnostic::do_not_recommend]
impl FreeAllowed for FiltersFollowAFreeField {}

/// Never implemented: the bound on `Key::scan()` of a key that has no scan
/// builder, so a call fails to compile with the reason in the message.
#[diagnostic::on_unimplemented(
    message = "this key has no scan builder: {Why}",
    label = "no scan builder for this key",
    note = "read its rows by their whole key (`get`), or put the hashed field first: a hash prefix of the first field leaves the later fields in order"
)]
pub trait HasScanBuilder<Why> {}

/// What `scan()` returns on a key without a scan builder (it cannot be
/// called).
#[derive(Debug)]
pub struct NoScanBuilder<'a>(core::marker::PhantomData<&'a ()>);

reasons! {
    /// The key starts with the hash of a field after the first, so no
    /// leading fields set in order pick out one range of keys.
    KeysHashPrefixedByALaterFieldHaveNoScanOrder,
}

#[diagnostic::on_unimplemented(
    message = "`in_bucket` applies to salted keys only: {Self}",
    label = "this key has no salt buckets",
    note = "the key has no `#[salt]` field: its rows are not spread over buckets, so `plan()` already reads the one range"
)]
/// Implemented by [`Yes`] only: a key whose scan can pin a salt bucket
/// ([`TypedScan::in_bucket`](super::TypedScan::in_bucket)); any other
/// type is the reason it cannot.
pub trait HasBuckets {}

#[diagnostic::do_not_recommend]
impl HasBuckets for Yes {}

#[diagnostic::on_unimplemented(
    message = "there is no one whole key here: {Self}",
    label = "`key()` needs every field fixed with `eq`",
    note = "`plan()` gives the range of the keys the query matches"
)]
/// Implemented by [`Yes`] only: a scan whose fields fix one whole key
/// ([`TypedScan::key`](super::TypedScan::key)); any other type is the
/// reason they do not.
pub trait HasWholeKey {}

#[diagnostic::do_not_recommend]
impl HasWholeKey for Yes {}

reasons! {
    /// A key without a `#[salt]` field has no buckets to pin.
    UnsaltedKeysHaveNoBuckets,
    /// `key()` before every field is fixed.
    NotEveryFieldIsSet,
    /// `key()` after `any()`: a free field matches many keys.
    AFieldLeftFreeMatchesManyKeys,
    /// `key()` after `is_in(..)`: each combination is a key.
    AnInListMatchesManyKeys,
    /// A custom salt hash the builder cannot compute: pin the bucket with
    /// `in_bucket` and read `plan()`.
    CustomSaltHashesAreNotComputedHere,
}

/// A mode of a scan: [`Yes`] until a field is left free
/// ([`FiltersFollowAFreeField`]) or an IN-list is given
/// ([`NoFreeFieldAfterAnInList`], or [`VariableWidthInListsHaveNoMergeOrder`]
/// when the listed field's width varies). Generated code only.
#[doc(hidden)]
pub trait ScanMode {
    /// What `key()` says once every field is set: [`Yes`], or why the
    /// mode has no one whole key.
    type Rule;
    /// The mode after an IN-list on a field of one width: a list keeps
    /// a merge refused by an earlier one.
    type AfterInList;
}

impl ScanMode for Yes {
    type Rule = Yes;
    type AfterInList = NoFreeFieldAfterAnInList;
}

impl ScanMode for FiltersFollowAFreeField {
    type Rule = AFieldLeftFreeMatchesManyKeys;
    // `is_in` is refused after a free field (`Ordered`).
    type AfterInList = Self;
}

impl ScanMode for NoFreeFieldAfterAnInList {
    type Rule = AnInListMatchesManyKeys;
    type AfterInList = Self;
}

impl ScanMode for VariableWidthInListsHaveNoMergeOrder {
    type Rule = AnInListMatchesManyKeys;
    type AfterInList = Self;
}
