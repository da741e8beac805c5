//! What `#[derive(Record)]` expands to calls; not a public API. The
//! facade re-exports it as `rowkey::__private::record`.
//!
//! Each field of a record is matched to its key by name at compile time:
//! `key_index::<K>("name")` is a `const`, and `Select<K, I, KEY, M>` picks
//! the field's role from it: a key field (`KEY`: taken from and put into
//! the key's `I`-th slot) or a cell (`M`: the codec marker). Each field's
//! role is resolved once, in a `const` of `FieldFns`, so a field with no
//! codec, or a key field of another type, is one error at that field.

use crate::cell::CellCodec;
pub use crate::cell::{CellError, CellValue};

use core::marker::PhantomData;
pub use rowkey_core::__private::{concat, is_key_field, key_index, str_eq, KeyField, KeyFields};
use rowkey_core::codec::phoenix::{self, PhoenixType, PhoenixValue};
use rowkey_core::EncodeErrorKind;

/// The codec marker of a field with no codec attribute: its type's
/// [`CellValue`].
pub struct Builtin;
/// `#[cell(with = C)]`.
pub struct With<C>(PhantomData<C>);
/// `#[cell(json)]`.
pub struct Json;
/// An `Option<T>` field: no cell for `None`, `M`'s for `Some`.
pub struct Optional<M>(PhantomData<M>);
/// A Phoenix record's column (`#[record(key = K, phoenix)]`): its
/// value's bytes as the Phoenix type `C::TYPE` (an `Option` is NULL-able:
/// no cell for `None`).
pub struct Phoenix<C>(PhantomData<C>);

/// The Phoenix type of a Phoenix record's column: a unit type the derive
/// emits per field.
pub trait PhoenixCellType {
    /// The column's type.
    const TYPE: PhoenixType;
}

/// A field's role: the `I`-th field of the key `K` (`KEY`), or a cell of
/// codec `M`.
pub struct Select<K, const I: usize, const KEY: bool, M>(PhantomData<(K, M)>);

/// Reads a field from the key's parts or its cell's bytes.
pub type ReadFn<P, T> = fn(&mut P, Option<&[u8]>) -> Result<T, CellError>;

/// A field's operations, its role chosen.
pub struct FieldFns<K: KeyFields, T> {
    /// A key field into the key's slot (a cell: nothing).
    pub put_key: fn(&mut K::Parts, &T),
    /// A key field, borrowed, into the key's borrowed slot (a cell:
    /// nothing): what `Record::to_key` writes the key from.
    pub put_ref: for<'a> fn(&mut K::RefParts<'a>, &'a T),
    /// The field from the key's slot or from its cell's bytes.
    pub read: ReadFn<K::Parts, T>,
    /// The cell's bytes (`None`: no cell), or why the value has none (a
    /// Phoenix value Phoenix would store other than given).
    pub write: fn(&T) -> Result<Option<Vec<u8>>, EncodeErrorKind>,
}

/// The operations of a field of type `T` in the role `Self`.
pub trait FieldRole<K: KeyFields, T> {
    /// Them.
    const FNS: FieldFns<K, T>;
}

fn put_slot<K: KeyField<I, T>, T: Clone, const I: usize>(parts: &mut K::Parts, value: &T) {
    *K::slot(parts) = Some(value.clone());
}
fn take_slot<K: KeyField<I, T>, T, const I: usize>(
    parts: &mut K::Parts,
    _: Option<&[u8]>,
) -> Result<T, CellError> {
    K::slot(parts).take().ok_or(CellError::Missing)
}
fn no_cell<T>(_: &T) -> Result<Option<Vec<u8>>, EncodeErrorKind> {
    Ok(None)
}
fn no_key<P, T>(_: &mut P, _: &T) {}
fn put_ref_slot<'a, K: KeyField<I, T>, T, const I: usize>(
    parts: &mut K::RefParts<'a>,
    value: &'a T,
) {
    *K::ref_slot(parts) = Some(value);
}
fn no_key_ref<'a, K: KeyFields, T>(_: &mut K::RefParts<'a>, _: &'a T) {}

impl<K: KeyField<I, T>, T: Clone, const I: usize, M> FieldRole<K, T> for Select<K, I, true, M> {
    const FNS: FieldFns<K, T> = FieldFns {
        put_key: put_slot::<K, T, I>,
        put_ref: put_ref_slot::<K, T, I>,
        read: take_slot::<K, T, I>,
        write: no_cell::<T>,
    };
}

fn builtin_write<T: CellValue>(value: &T) -> Result<Option<Vec<u8>>, EncodeErrorKind> {
    Ok(Some(value.to_cell()))
}
fn builtin_read<P, T: CellValue>(_: &mut P, bytes: Option<&[u8]>) -> Result<T, CellError> {
    T::from_cell(bytes.ok_or(CellError::Missing)?)
}

impl<K: KeyFields, T: CellValue, const I: usize> FieldRole<K, T> for Select<K, I, false, Builtin> {
    const FNS: FieldFns<K, T> = FieldFns {
        put_key: no_key::<K::Parts, T>,
        put_ref: no_key_ref::<K, T>,
        read: builtin_read::<K::Parts, T>,
        write: builtin_write::<T>,
    };
}

fn with_write<C: CellCodec<T>, T>(value: &T) -> Result<Option<Vec<u8>>, EncodeErrorKind> {
    Ok(Some(C::encode(value)))
}
fn with_read<P, C: CellCodec<T>, T>(_: &mut P, bytes: Option<&[u8]>) -> Result<T, CellError> {
    C::decode(bytes.ok_or(CellError::Missing)?).map_err(CellError::Refused)
}

impl<K: KeyFields, T, C: CellCodec<T>, const I: usize> FieldRole<K, T>
    for Select<K, I, false, With<C>>
{
    const FNS: FieldFns<K, T> = FieldFns {
        put_key: no_key::<K::Parts, T>,
        put_ref: no_key_ref::<K, T>,
        read: with_read::<K::Parts, C, T>,
        write: with_write::<C, T>,
    };
}

/// A type `#[cell(json)]` can store: with the `serde` feature, every type
/// that implements serde's `Serialize` and `DeserializeOwned`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be stored as JSON",
    label = "#[cell(json)] on this field",
    note = "#[cell(json)] needs rowkey's `serde` feature, and a type that implements serde's Serialize and Deserialize"
)]
pub trait JsonValue: Sized {
    /// The JSON.
    fn to_json(&self) -> Vec<u8>;
    /// The value.
    fn from_json(bytes: &[u8]) -> Result<Self, CellError>;
}

// `do_not_recommend`: a type with neither serde trait is one error, this
// trait's, at `#[cell(json)]`, not one per missing serde trait.
#[cfg(feature = "serde")]
#[diagnostic::do_not_recommend]
impl<T: serde::Serialize + serde::de::DeserializeOwned> JsonValue for T {
    fn to_json(&self) -> Vec<u8> {
        crate::cell::json::to_json(self)
    }
    fn from_json(bytes: &[u8]) -> Result<Self, CellError> {
        crate::cell::json::from_json(bytes)
    }
}

fn json_write<T: JsonValue>(value: &T) -> Result<Option<Vec<u8>>, EncodeErrorKind> {
    Ok(Some(value.to_json()))
}
fn json_read<P, T: JsonValue>(_: &mut P, bytes: Option<&[u8]>) -> Result<T, CellError> {
    T::from_json(bytes.ok_or(CellError::Missing)?)
}

impl<K: KeyFields, T: JsonValue, const I: usize> FieldRole<K, T> for Select<K, I, false, Json> {
    const FNS: FieldFns<K, T> = FieldFns {
        put_key: no_key::<K::Parts, T>,
        put_ref: no_key_ref::<K, T>,
        read: json_read::<K::Parts, T>,
        write: json_write::<T>,
    };
}

fn optional_write<K: KeyFields, T, R: FieldRole<K, T>>(
    value: &Option<T>,
) -> Result<Option<Vec<u8>>, EncodeErrorKind> {
    match value {
        Some(v) => (R::FNS.write)(v),
        None => Ok(None),
    }
}
fn optional_read<K: KeyFields, T, R: FieldRole<K, T>>(
    parts: &mut K::Parts,
    bytes: Option<&[u8]>,
) -> Result<Option<T>, CellError> {
    match bytes {
        None => Ok(None),
        Some(b) => (R::FNS.read)(parts, Some(b)).map(Some),
    }
}

impl<K: KeyFields, T, M, const I: usize> FieldRole<K, Option<T>>
    for Select<K, I, false, Optional<M>>
where
    Select<K, I, false, M>: FieldRole<K, T>,
{
    const FNS: FieldFns<K, Option<T>> = FieldFns {
        put_key: no_key::<K::Parts, Option<T>>,
        put_ref: no_key_ref::<K, Option<T>>,
        read: optional_read::<K, T, Select<K, I, false, M>>,
        write: optional_write::<K, T, Select<K, I, false, M>>,
    };
}

fn phoenix_write<C: PhoenixCellType, T: PhoenixValue>(
    value: &T,
) -> Result<Option<Vec<u8>>, EncodeErrorKind> {
    phoenix::cell_bytes(value, &C::TYPE)
}
fn phoenix_read<P, C: PhoenixCellType, T: PhoenixValue>(
    _: &mut P,
    bytes: Option<&[u8]>,
) -> Result<T, CellError> {
    phoenix::cell_value(bytes, &C::TYPE).map_err(|kind| match kind {
        // A non-`Option` field's column without a cell.
        _ if bytes.is_none_or(<[u8]>::is_empty) => CellError::Missing,
        kind => CellError::Invalid(kind.to_string()),
    })
}

impl<K: KeyFields, T: PhoenixValue, C: PhoenixCellType, const I: usize> FieldRole<K, T>
    for Select<K, I, false, Phoenix<C>>
{
    const FNS: FieldFns<K, T> = FieldFns {
        put_key: no_key::<K::Parts, T>,
        put_ref: no_key_ref::<K, T>,
        read: phoenix_read::<K::Parts, C, T>,
        write: phoenix_write::<C, T>,
    };
}

/// The non-key columns of a record's `columns` list (`(is_key, family,
/// qualifier)`) that are numbered Phoenix columns, with their slots, in
/// families of first appearance.
fn numbered<'a>(
    columns: &'a [(bool, &'a str, &'a [u8])],
    encoded_bytes: u8,
) -> impl Iterator<Item = (&'a str, &'a [u8], usize)> + 'a {
    columns
        .iter()
        .filter(|(k, ..)| !k)
        .filter_map(move |(_, f, q)| {
            phoenix::qualifier_number(encoded_bytes, q)
                .and_then(phoenix::single_cell_slot)
                .map(|slot| (*f, *q, slot))
        })
}

fn families<'a>(columns: &'a [(bool, &'a str, &'a [u8])], encoded_bytes: u8) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for (f, ..) in numbered(columns, encoded_bytes) {
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// A `SINGLE_CELL_ARRAY_WITH_OFFSETS` record's cells: each family's
/// columns (of `columns`, the record's list) packed into its one cell at
/// qualifier `1`, as Phoenix writes every family's on every write; the
/// empty column kept.
pub fn phoenix_pack(
    cells: Vec<Cell>,
    columns: &[(bool, &str, &[u8])],
    encoded_bytes: u8,
) -> Vec<Cell> {
    // The empty column first: what `put_record_if_absent` tests.
    let empty = phoenix::empty_column_qualifier(encoded_bytes);
    let mut out: Vec<Cell> = cells
        .iter()
        .filter(|c| c.qualifier == empty)
        .cloned()
        .collect();
    for family in families(columns, encoded_bytes) {
        let mut values: Vec<Option<&[u8]>> = Vec::new();
        for (f, q, slot) in numbered(columns, encoded_bytes) {
            if f != family {
                continue;
            }
            if values.len() < slot {
                values.resize(slot, None);
            }
            values[slot - 1] = cells
                .iter()
                .find(|c| c.family == f && c.qualifier == q)
                .map(|c| c.value.as_slice());
        }
        out.push(Cell::new(
            family,
            phoenix::SINGLE_CELL_QUALIFIER,
            phoenix::pack_single_cell(&values),
        ));
    }
    out
}

/// A `SINGLE_CELL_ARRAY_WITH_OFFSETS` row with each family's packed cell
/// opened into a cell per column (of `columns`), which the record's fields
/// then read as a cell-per-column row's.
#[allow(clippy::result_large_err)] // `Record::from_row`'s error, on its cold path
pub fn phoenix_unpack(
    record: &'static str,
    row: &Row,
    columns: &[(bool, &str, &[u8])],
    encoded_bytes: u8,
) -> Result<Row, RecordError> {
    let mut cells = Vec::new();
    for family in families(columns, encoded_bytes) {
        let Some(packed) = row.value(family, phoenix::SINGLE_CELL_QUALIFIER) else {
            continue;
        };
        let bad = |kind: rowkey_core::DecodeErrorKind| RecordError::Cell {
            record,
            family: family.to_owned(),
            qualifier: phoenix::SINGLE_CELL_QUALIFIER.to_vec(),
            key: row.key.clone(),
            reason: CellError::Invalid(kind.to_string()),
        };
        let cell = phoenix::SingleCell::parse(packed).map_err(bad)?;
        for (f, q, slot) in numbered(columns, encoded_bytes) {
            if f == family {
                if let Some(v) = cell.value(slot).map_err(bad)? {
                    cells.push(Cell::new(f, q, v));
                }
            }
        }
    }
    Ok(Row::new(row.key.clone(), cells))
}

/// A `SINGLE_CELL_ARRAY_WITH_OFFSETS` record's columns: each family's
/// one cell, and the empty column.
pub fn phoenix_single_cell_columns(columns: &[(bool, &str, &[u8])], encoded_bytes: u8) -> Columns {
    let empty = phoenix::empty_column_qualifier(encoded_bytes);
    let packed = families(columns, encoded_bytes)
        .into_iter()
        .map(|f| (f, phoenix::SINGLE_CELL_QUALIFIER));
    let empties = columns
        .iter()
        .filter(|(k, _, q)| !k && *q == empty)
        .map(|(_, f, q)| (*f, *q));
    Columns::new(packed.chain(empties))
}

/// Fails the build when a Phoenix record's column (a field that is not a
/// key field) has no type its Rust type says or its `#[phoenix(..)]`
/// names (`ty` empty), or holds no value of it (`holds`, from
/// [`PhoenixValue::HOLDS`]; `rust` names the Rust types that do).
pub const fn check_phoenix_type<K: KeyFields>(field: &str, holds: bool, ty: &str, rust: &str) {
    if K::STUB || is_key_field::<K>(field) {
        return;
    }
    let mut buf = [0u8; 512];
    if ty.is_empty() {
        let msg = concat(
            &mut buf,
            &[
                "field `",
                field,
                "` is a Phoenix column (its key has no field of that name) whose type its \
                 Rust type does not say: name it, as #[phoenix(varchar(10))] or \
                 #[phoenix(unsigned_int)]",
            ],
        );
        panic!("{}", msg);
    }
    if !holds {
        let msg = concat(
            &mut buf,
            &[
                "field `",
                field,
                "`: a Phoenix ",
                ty,
                " column is ",
                rust,
                ", not this type",
            ],
        );
        panic!("{}", msg);
    }
}

/// Fails the build when a Phoenix record's column (a field that is not a
/// key field) has no qualifier in a table whose qualifiers are numbers.
pub const fn check_phoenix_qualified<K: KeyFields>(field: &str) {
    if K::STUB || is_key_field::<K>(field) {
        return;
    }
    let mut buf = [0u8; 512];
    let msg = concat(
        &mut buf,
        &[
            "field `",
            field,
            "` is a Phoenix column (its key has no field of that name) without its \
             qualifier: give the number Phoenix's catalog gave it, #[cell(qualifier = 11)] \
             (`rowkey phoenix` prints each column's)",
        ],
    );
    panic!("{}", msg);
}

/// The key of `row`, taken apart.
#[allow(clippy::result_large_err)] // `Record::from_row`'s error, on its cold path
pub fn key_parts<K: KeyFields>(record: &'static str, row: &Row) -> Result<K::Parts, RecordError> {
    K::decode_parts(&row.key).map_err(|source| RecordError::Key {
        record,
        key: row.key.clone(),
        source,
    })
}

/// One field of the record `row` holds: from the key's parts (a key
/// field), or from the cell `family:qualifier`.
#[allow(clippy::result_large_err)] // `Record::from_row`'s error, on its cold path
pub fn read_field<K: KeyFields, T>(
    fns: &FieldFns<K, T>,
    is_key: bool,
    parts: &mut K::Parts,
    row: &Row,
    record: &'static str,
    family: &str,
    qualifier: &[u8],
) -> Result<T, RecordError> {
    let bytes = if is_key {
        None
    } else {
        row.value(family, qualifier)
    };
    (fns.read)(parts, bytes).map_err(|reason| RecordError::Cell {
        record,
        family: family.to_owned(),
        qualifier: qualifier.to_vec(),
        key: row.key.clone(),
        reason,
    })
}

/// One field's cell, if it has one, onto `cells`; a value with none is
/// an error naming the record and the field.
pub fn write_field<K: KeyFields, T>(
    fns: &FieldFns<K, T>,
    value: &T,
    (record, field): (&'static str, &'static str),
    family: &str,
    qualifier: &[u8],
    cells: &mut Vec<Cell>,
) -> Result<(), rowkey_core::EncodeError> {
    match (fns.write)(value) {
        Ok(Some(bytes)) => {
            cells.push(Cell {
                family: family.to_owned(),
                qualifier: qualifier.to_vec(),
                value: bytes,
            });
            Ok(())
        }
        Ok(None) => Ok(()),
        Err(kind) => Err(rowkey_core::EncodeError::new(record, field, 0, kind)),
    }
}

/// The bytes of the key whose fields were borrowed into `parts`, or of
/// `whole()` where the key is written from the whole struct (a custom
/// salt hash).
#[inline(always)]
pub fn record_key<K: KeyFields>(
    parts: &K::RefParts<'_>,
    whole: impl FnOnce() -> K,
) -> Result<K::Key, rowkey_core::EncodeError> {
    match rowkey_core::__private::encode_ref_parts::<K>(parts) {
        // A field that wrote past the key's `MAX_LEN` (a hand-written
        // `KeyPart` breaking its contract): the error of the built key,
        // which names the whole key's length.
        Some(Err(e)) if matches!(e.kind(), EncodeErrorKind::BufferTooSmall { .. }) => {
            whole().to_key()
        }
        Some(key) => key,
        None => whole().to_key(),
    }
}

/// The key from the parts every key field was put into.
pub fn key_from_parts<K: KeyFields>(parts: K::Parts) -> K {
    // The record's `const` check proves every key field is a record field.
    K::from_parts(parts).expect("every key field is a field of the record")
}

/// The record's columns: its cells' `(family, qualifier)`, key fields
/// left out.
pub fn columns(fields: &[(bool, &str, &[u8])]) -> Columns {
    Columns::new(
        fields
            .iter()
            .filter(|(is_key, _, _)| !is_key)
            .map(|(_, f, q)| (*f, *q)),
    )
}

/// Fails the build (a `const` panic naming the field) when a field of the
/// key `K` is not among the record's fields `have`.
pub const fn check_key_fields<K: KeyFields>(record: &str, key: &str, have: &[&str]) {
    if K::STUB {
        return;
    }
    let mut i = 0;
    while i < K::NAMES.len() {
        let name = K::NAMES[i];
        let mut found = false;
        let mut j = 0;
        while j < have.len() {
            found |= str_eq(name, have[j]);
            j += 1;
        }
        if !found {
            let mut buf = [0u8; 512];
            let msg = concat(
                &mut buf,
                &[
                    "record `",
                    record,
                    "` has no field `",
                    name,
                    "`, a field of its key `",
                    key,
                    "`: key fields are matched by name; add `",
                    name,
                    ": ..` (of the key field's type) to the record",
                ],
            );
            panic!("{}", msg);
        }
        i += 1;
    }
}

/// Fails the build when a field with cell attributes is a key field.
pub const fn check_not_key<K: KeyFields>(field: &str, key: &str) {
    if K::STUB || !is_key_field::<K>(field) {
        return;
    }
    let mut buf = [0u8; 512];
    let msg = concat(
        &mut buf,
        &[
            "field `",
            field,
            "` is a field of the key `",
            key,
            "`, stored in the row key, not in a cell: remove its #[cell(..)]",
        ],
    );
    panic!("{}", msg);
}

/// Fails the build when a field that is not a key field (so a cell) has
/// no column family.
pub const fn check_has_family<K: KeyFields>(record: &str, field: &str) {
    if K::STUB || is_key_field::<K>(field) {
        return;
    }
    let mut buf = [0u8; 512];
    let msg = concat(
        &mut buf,
        &[
            "field `",
            field,
            "` of record `",
            record,
            "` is a cell (its key has no field of that name) with no column family: add \
             #[record(family = \"d\")] to the struct or #[cell(family = \"d\")] to the field",
        ],
    );
    panic!("{}", msg);
}

pub use crate::{BoxError, Cell, Columns, Record, RecordError, Row};
pub use std::vec::Vec;

/// The key of the stub `Record` a failed derive emits when its key type
/// is not known (`#[record(key = ..)]` missing): it never runs, the crate
/// does not compile while the error stands.
pub struct NoKey;

impl rowkey_core::__private::WriteKey for NoKey {
    fn write_key(
        &self,
        _: &mut rowkey_core::KeyWriter<'_>,
    ) -> Result<(), rowkey_core::EncodeError> {
        unimplemented!()
    }
}

impl rowkey_core::RowKey for NoKey {
    const MAX_LEN: usize = 0;
    const FIXED_LEN: Option<usize> = None;
    type Key = rowkey_core::KeyBuf<0>;
    fn encoded_len(&self) -> usize {
        unimplemented!()
    }
    fn layout() -> &'static rowkey_core::Layout {
        unimplemented!()
    }
}
