//! The validated plan of a key: fields in key order, each with the codec
//! the checks chose. Expansion reads only this.

use crate::attr::{HashChoice, PrefixAlgo, Spanned};
use crate::ty::TypeKind;
use proc_macro2::Span;
use syn::{Generics, Ident, Path, Type};

/// A checked `#[derive(RowKey)]` struct.
pub struct KeyModel<'a> {
    pub ident: &'a Ident,
    /// The struct's visibility: its scan builder gets the same.
    pub vis: &'a syn::Visibility,
    pub generics: &'a Generics,
    /// Path to the `rowkey` facade (`#[rowkey(crate = "..")]`).
    pub krate: Path,
    pub separator: Option<u8>,
    /// `#[rowkey(max_len = N)]`.
    pub max_len: Option<Spanned<usize>>,
    /// `#[rowkey(target = "..")]`.
    pub target: Option<Spanned<crate::attr::Target>>,
    pub fields: Vec<FieldModel<'a>>,
    /// A salt bucket or hash prefix before the fields.
    pub prefix: Option<PrefixModel>,
    /// `#[rowkey(index_of = Main)]`.
    pub index_of: Option<Type>,
    /// `#[rowkey(phoenix)]`: every field a Phoenix key column.
    pub phoenix: bool,
}

/// What a key starts with before its fields.
pub enum PrefixModel {
    Salt(SaltModel),
    HashPrefix(HashPrefixModel),
}

/// A checked `#[salt(..)]`.
pub struct SaltModel {
    pub buckets: u32,
    pub binary: bool,
    pub hash: HashChoice,
    /// Indices of the salted fields, in key order.
    pub inputs: Vec<usize>,
    pub groups: Option<GroupModel>,
    /// The `#[salt(..)]` that carries the options: where const checks point.
    pub span: Span,
}

/// Bucket groups chosen by a field.
pub struct GroupModel {
    /// Index of the `group_by` field.
    pub field: usize,
    pub per_group: u32,
    pub kind: GroupKind,
}

/// How the `group_by` field's value becomes a group index.
pub enum GroupKind {
    /// A `KeyGroup` type (a `#[derive(KeyPart)]` enum): its variant index.
    Enum,
    /// An integer in `lo..=hi`: `value - lo`.
    Range { lo: i128, hi: i128 },
    /// A user function of the field, with the group count.
    Func { path: syn::Path, groups: u32 },
}

impl GroupKind {
    /// The group count, when the derive knows it.
    pub fn groups(&self) -> Option<u32> {
        match *self {
            GroupKind::Enum => None,
            GroupKind::Range { lo, hi } => u32::try_from(hi - lo + 1).ok(),
            GroupKind::Func { groups, .. } => Some(groups),
        }
    }
}

/// A checked `#[hash_prefix(..)]`.
pub struct HashPrefixModel {
    /// Index of the hashed field.
    pub field: usize,
    pub len: usize,
    pub binary: bool,
    pub algo: PrefixAlgo,
}

impl PrefixModel {
    /// Bytes before the first field: the prefix, and the separator after
    /// a text prefix of a separator-joined key.
    pub fn len(&self, separated: bool) -> usize {
        let sep = usize::from(separated);
        match self {
            PrefixModel::Salt(s) => {
                rowkey_core::salt::bucket_prefix_len(s.buckets, s.binary, separated)
            }
            PrefixModel::HashPrefix(h) => h.len + sep,
        }
    }
}

/// One field and how it is written.
pub struct FieldModel<'a> {
    pub ident: &'a Ident,
    /// The declared type.
    pub ty: &'a Type,
    /// The declared type, or `T` of `Option<T>`.
    pub value_ty: &'a Type,
    pub optional: bool,
    pub kind: TypeKind,
    pub codec: FieldCodec,
    /// Bytes inverted (`#[desc]`).
    pub desc: bool,
}

// How a field's value becomes bytes is core's `FieldCodec`, the type the
// layout carries: the checks build it and core's rules (`layout::rules`)
// answer for it.
pub use rowkey_core::codec::{Framing, Reverse};
pub use rowkey_core::layout::FieldCodec;
pub use rowkey_core::Side;

impl FieldModel<'_> {
    /// Whether a text/bytes field's stored bytes are the value itself, so
    /// borrowed types can point into the key.
    pub fn borrowable(&self) -> bool {
        self.codec.borrows(self.desc)
    }

    /// The most bytes of the field, `Option` tag included, when the derive
    /// can tell without asking the type's `KeyPart`.
    pub fn static_max_len(&self) -> Option<usize> {
        // A codec that leaves its length to the type (the binary one) has
        // none of its own: the type's, if the derive knows the type.
        let value = self.codec.max_len().or_else(|| self.kind.binary_len());
        value.map(|n| n + usize::from(self.optional))
    }

    /// The field's name as written.
    pub fn name(&self) -> String {
        syn::ext::IdentExt::unraw(self.ident).to_string()
    }
}

/// A checked `#[derive(KeyPart)]` input.
pub struct KeyPartModel<'a> {
    pub ident: &'a Ident,
    /// Path to the `rowkey` facade (`#[rowkey(crate = "..")]`).
    pub krate: Path,
    pub shape: PartShape<'a>,
}

/// What a key part is.
pub enum PartShape<'a> {
    /// A unit-only enum, its variants in declared (sort) order.
    UnitEnum(Vec<&'a Ident>),
    /// A newtype struct over this type.
    Newtype(&'a Type),
    /// A struct of `#[bits(n)]` fields, packed into one word, the first
    /// field highest.
    Bits(Vec<BitsFieldModel<'a>>),
}

/// One `#[bits(n)]` field of a packed struct.
pub struct BitsFieldModel<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub bits: u8,
}

/// A checked `#[derive(Record)]` struct.
pub struct RecordModel<'a> {
    pub ident: &'a Ident,
    /// Path to the `rowkey` facade (`#[record(crate = "..")]`).
    pub krate: Path,
    /// `#[record(key = K)]`.
    pub key: Type,
    pub fields: Vec<RecordFieldModel<'a>>,
    /// `#[record(phoenix)]`: a Phoenix table's row, whose
    /// `COLUMN_ENCODED_BYTES` this is; its empty column goes in `family`.
    pub phoenix: Option<PhoenixRecordModel>,
}

/// A Phoenix record's table: what its empty column is.
pub struct PhoenixRecordModel {
    /// The table's `COLUMN_ENCODED_BYTES` (0: columns named).
    pub encoded_bytes: u8,
    /// The family of its empty column: the record's.
    pub family: String,
    /// `SINGLE_CELL_ARRAY_WITH_OFFSETS`: a family's columns in one cell.
    pub single_cell: bool,
}

/// One field of a record: a key field or a cell, which the expansion
/// decides at compile time by matching its name to the key's fields.
pub struct RecordFieldModel<'a> {
    pub ident: &'a Ident,
    /// The declared type.
    pub ty: &'a Type,
    /// `Option<T>`: no cell for `None`.
    pub optional: bool,
    /// `#[cell(skip)]`: not stored; `Default::default()` on read.
    pub skip: bool,
    /// The cell's family, if any was given.
    pub family: Option<String>,
    /// The cell's qualifier (the field's name by default; a Phoenix
    /// column's encoded number).
    pub qualifier: Vec<u8>,
    pub codec: CellCodecModel,
    /// Its `#[cell(..)]`, if it has one: it says the field is a cell.
    pub cell_attr: Option<Span>,
}

/// How a cell's value becomes bytes.
pub enum CellCodecModel {
    /// The type's `CellValue`.
    Builtin,
    /// `#[cell(with = path)]`.
    With(Path),
    /// `#[cell(json)]`.
    Json(Span),
    /// A Phoenix record's column: its type (`None`: not known from the
    /// Rust type and not named, an error if the field is a cell), and
    /// whether it has its qualifier (an error if not, for a cell).
    Phoenix {
        ty: Option<rowkey_core::codec::phoenix::PhoenixType>,
        qualified: bool,
        span: Span,
    },
}

impl RecordFieldModel<'_> {
    /// The field's name as written.
    pub fn name(&self) -> String {
        syn::ext::IdentExt::unraw(self.ident).to_string()
    }
}
