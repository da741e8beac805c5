//! [`RekeyMapping`]: how a re-key tells old rows from others and makes
//! each old row's new one, and its three forms: by the layouts' values
//! ([`ValueMapping`], the interpreter, for layouts read from JSON), by
//! key types ([`TypedMapping`]) and by records ([`RecordMapping`]).

use crate::{Record, Row};
use core::marker::PhantomData;
use rowkey_core::layout::dynamic::Value;
use rowkey_core::{DecodeKey, DecodeKeyOwned, IndexOf, Layout, RowKey};

/// How a re-key maps rows. Implemented by [`ValueMapping`],
/// [`TypedMapping`] and [`RecordMapping`]; implement it for anything
/// else.
///
/// ```
/// use rowkey::store::{RekeyMapping, Row};
/// /// Keys `v1:<id>` become `v2:<id>`.
/// struct Prefix;
/// impl RekeyMapping for Prefix {
///     fn is_old(&self, key: &[u8]) -> bool { key.starts_with(b"v1:") }
///     fn is_new(&self, key: &[u8]) -> bool { key.starts_with(b"v2:") }
///     fn map(&self, old: &Row) -> Result<Option<Row>, String> {
///         let key = [&b"v2:"[..], &old.key[3..]].concat();
///         Ok(Some(Row::new(key, old.cells.clone())))
///     }
/// }
/// let new = Prefix.map(&Row::new(&b"v1:7"[..], vec![])).unwrap().unwrap();
/// assert_eq!(new.key, b"v2:7");
/// ```
pub trait RekeyMapping: Send + Sync {
    /// Whether `key` is a key of the old layout (rows that are not are
    /// left alone and counted).
    fn is_old(&self, key: &[u8]) -> bool;

    /// Whether `key` is a key of the new layout.
    fn is_new(&self, key: &[u8]) -> bool;

    /// The new row of the old row `old`; `None` to drop it. An `Err`
    /// stops the re-key, naming the row.
    fn map(&self, old: &Row) -> Result<Option<Row>, String>;

    /// The index key of the new main key `new_key`, when the re-key
    /// rebuilds an index table; `None` for no index row.
    fn index_key(&self, new_key: &[u8]) -> Result<Option<Vec<u8>>, String> {
        let _ = new_key;
        Ok(None)
    }
}

type ValuesFn = dyn Fn(Vec<Value>) -> Result<Vec<Value>, String> + Send + Sync;

/// Rows mapped by their keys' values, through the layout interpreter:
/// the old key decoded by the old layout, its values mapped, the new key
/// encoded by the new layout; cells kept.
///
/// ```
/// use rowkey::layout::dynamic::Value;
/// use rowkey::store::{Cell, RekeyMapping, Row, ValueMapping};
/// use rowkey::RowKey;
/// mod v1 { #[derive(rowkey::RowKey)] pub struct Op { pub uid: u64, #[desc] pub at: u64 } }
/// mod v2 { #[derive(rowkey::RowKey)] pub struct Op { pub uid: u64, pub at: u64 } }
/// let m = ValueMapping::same_values(v1::Op::layout(), v2::Op::layout());
/// let old = Row::new(v1::Op { uid: 7, at: 72629 }.to_vec()?, vec![Cell::new("d", "k", "x")]);
/// let new = m.map(&old)?.unwrap();
/// assert_eq!(new.key, v2::Op { uid: 7, at: 72629 }.to_vec()?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ValueMapping {
    old: &'static Layout,
    new: &'static Layout,
    values: Box<ValuesFn>,
}

impl ValueMapping {
    /// Maps the old key's values (in the old layout's field order) to the
    /// new key's (in the new layout's) with `f`.
    pub fn new(
        old: &'static Layout,
        new: &'static Layout,
        f: impl Fn(Vec<Value>) -> Result<Vec<Value>, String> + Send + Sync + 'static,
    ) -> Self {
        ValueMapping {
            old,
            new,
            values: Box::new(f),
        }
    }

    /// The same values under the new layout: each new field takes the
    /// old field of its name (else the one at its position).
    pub fn same_values(old: &'static Layout, new: &'static Layout) -> Self {
        let from: Vec<Option<usize>> = new
            .fields
            .iter()
            .enumerate()
            .map(|(i, f)| {
                old.fields
                    .iter()
                    .position(|o| o.name == f.name)
                    .or((i < old.fields.len()).then_some(i))
            })
            .collect();
        ValueMapping::new(old, new, move |values| {
            from.iter()
                .zip(new.fields)
                .map(|(j, f)| {
                    j.and_then(|j| values.get(j).cloned())
                        .ok_or_else(|| format!("no old value for field `{}`", f.name))
                })
                .collect()
        })
    }
}

impl RekeyMapping for ValueMapping {
    fn is_old(&self, key: &[u8]) -> bool {
        self.old.decode_key(key).is_ok()
    }

    fn is_new(&self, key: &[u8]) -> bool {
        self.new.decode_key(key).is_ok()
    }

    fn map(&self, old: &Row) -> Result<Option<Row>, String> {
        let values = self
            .old
            .decode_key(&old.key)
            .map_err(|e| e.to_string())?
            .values();
        let key = self
            .new
            .encode_key(&(self.values)(values)?, None)
            .map_err(|e| e.to_string())?;
        Ok(Some(Row::new(key, old.cells.clone())))
    }
}

type IndexFn = fn(&[u8]) -> Result<Option<Vec<u8>>, String>;

/// Rows mapped by key types: the old key decoded as `Old`, mapped to a
/// `New` by `f`, cells kept; with [`with_index`](Self::with_index), an
/// index of `New` keys rebuilt.
///
/// ```
/// use rowkey::store::{RekeyMapping, Row, Cell, TypedMapping};
/// use rowkey::RowKey;
/// mod v1 { #[derive(rowkey::RowKey)] pub struct Op { #[salt(buckets = 32)] pub uid: u64 } }
/// mod v2 { #[derive(rowkey::RowKey)] pub struct Op { #[salt(buckets = 64)] pub uid: u64 } }
/// let m = TypedMapping::new(|o: v1::Op| v2::Op { uid: o.uid });
/// let old = Row::new(v1::Op { uid: 9 }.to_vec()?, vec![Cell::new("d", "k", "x")]);
/// assert_eq!(m.map(&old)?.unwrap().key, v2::Op { uid: 9 }.to_vec()?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TypedMapping<Old, New, F> {
    f: F,
    index: Option<IndexFn>,
    keys: PhantomData<fn(Old) -> New>,
}

impl<Old, New, F> TypedMapping<Old, New, F>
where
    Old: DecodeKeyOwned,
    New: RowKey + DecodeKeyOwned,
    F: Fn(Old) -> New + Send + Sync,
{
    /// Maps each old key to its new key with `f`.
    pub fn new(f: F) -> Self {
        TypedMapping {
            f,
            index: None,
            keys: PhantomData,
        }
    }

    /// Rebuilds an index of `X` keys of the new main keys.
    pub fn with_index<X: IndexOf<New>>(mut self) -> Self {
        self.index = Some(|key| {
            let main = New::decode(key).map_err(|e| e.to_string())?;
            Ok(Some(
                X::index_key(&main).to_vec().map_err(|e| e.to_string())?,
            ))
        });
        self
    }
}

impl<Old, New, F> RekeyMapping for TypedMapping<Old, New, F>
where
    Old: DecodeKeyOwned,
    New: RowKey + DecodeKeyOwned,
    F: Fn(Old) -> New + Send + Sync,
{
    fn is_old(&self, key: &[u8]) -> bool {
        Old::decode(key).is_ok()
    }

    fn is_new(&self, key: &[u8]) -> bool {
        New::decode(key).is_ok()
    }

    fn map(&self, old: &Row) -> Result<Option<Row>, String> {
        let key = Old::decode(&old.key).map_err(|e| e.to_string())?;
        let new = (self.f)(key).to_vec().map_err(|e| e.to_string())?;
        Ok(Some(Row::new(new, old.cells.clone())))
    }

    fn index_key(&self, new_key: &[u8]) -> Result<Option<Vec<u8>>, String> {
        self.index.map_or(Ok(None), |f| f(new_key))
    }
}

/// Rows mapped as records: the old row read as an `OldR`, mapped to a
/// `NewR` by `f` (`None` drops it), written as its key and cells.
///
/// ```
/// use rowkey::store::{RecordMapping, RekeyMapping, Record, Row};
/// use rowkey::{Record, RowKey};
/// mod v1 {
///     #[derive(rowkey::RowKey)] pub struct Key { pub uid: u64, #[desc] pub at: u64 }
///     #[derive(rowkey::Record)] #[record(key = Key, family = "d")]
///     pub struct Op { pub uid: u64, pub at: u64, pub kind: String }
/// }
/// mod v2 {
///     #[derive(rowkey::RowKey)] pub struct Key { pub uid: u64, pub at: u64 }
///     #[derive(rowkey::Record, Debug, PartialEq)] #[record(key = Key, family = "d")]
///     pub struct Op { pub uid: u64, pub at: u64, pub kind: String }
/// }
/// // Logins only, the rest dropped; each kept op under its new key.
/// let m = RecordMapping::new(|o: v1::Op| {
///     (o.kind == "login").then(|| v2::Op { uid: o.uid, at: o.at, kind: o.kind })
/// });
/// let op = v1::Op { uid: 7, at: 72629, kind: "login".into() };
/// let old = Row::new(op.key().to_vec()?, op.cells());
/// let new = m.map(&old)?.expect("a login");
/// assert_eq!(v2::Op::from_row(&new)?, v2::Op { uid: 7, at: 72629, kind: "login".into() });
/// let logout = v1::Op { uid: 7, at: 9, kind: "logout".into() };
/// assert_eq!(m.map(&Row::new(logout.key().to_vec()?, logout.cells()))?, None);
/// # Ok::<(), rowkey::store::BoxError>(())
/// ```
pub struct RecordMapping<OldR, NewR, F> {
    f: F,
    records: PhantomData<fn(OldR) -> NewR>,
}

impl<OldR, NewR, F> RecordMapping<OldR, NewR, F>
where
    OldR: Record,
    OldR::Key: DecodeKeyOwned,
    NewR: Record,
    NewR::Key: DecodeKeyOwned,
    F: Fn(OldR) -> Option<NewR> + Send + Sync,
{
    /// Maps each old record with `f`.
    pub fn new(f: F) -> Self {
        RecordMapping {
            f,
            records: PhantomData,
        }
    }
}

impl<OldR, NewR, F> RekeyMapping for RecordMapping<OldR, NewR, F>
where
    OldR: Record,
    OldR::Key: DecodeKeyOwned,
    NewR: Record,
    NewR::Key: DecodeKeyOwned,
    F: Fn(OldR) -> Option<NewR> + Send + Sync,
{
    fn is_old(&self, key: &[u8]) -> bool {
        OldR::Key::decode(key).is_ok()
    }

    fn is_new(&self, key: &[u8]) -> bool {
        NewR::Key::decode(key).is_ok()
    }

    fn map(&self, old: &Row) -> Result<Option<Row>, String> {
        let record = OldR::from_row(old).map_err(|e| e.to_string())?;
        let Some(new) = (self.f)(record) else {
            return Ok(None);
        };
        Row::of_record(&new).map(Some).map_err(|e| e.to_string())
    }
}
