//! [`PhoenixTable::record_struct`] and [`PhoenixTable::check_record`]: a
//! table's whole row as a `#[derive(Record)] #[record(phoenix)]` struct,
//! and such a struct checked against the table.

use super::catalog::{PhoenixTable, QualifierEncoding, StorageScheme};
use super::check::KeyMismatch;
use super::describe::{field_name, rust_type, type_name};
use rowkey_core::codec::phoenix::{empty_column_qualifier, qualifier_number, DEFAULT_FAMILY};
use rowkey_store::Record;
use std::fmt::Write;

impl PhoenixTable {
    /// The family of the table's empty column: its `DEFAULT_COLUMN_FAMILY`,
    /// else its first column's, else `0` (`SchemaUtil.getEmptyColumnFamily`).
    pub fn empty_column_family(&self) -> &str {
        self.default_family
            .as_deref()
            .or_else(|| self.value_columns().find_map(|c| c.family.as_deref()))
            .unwrap_or(DEFAULT_FAMILY)
    }

    fn encoded_bytes(&self) -> u8 {
        match self.encoding {
            QualifierEncoding::None => 0,
            QualifierEncoding::Bytes(n) => n,
        }
    }

    /// The `#[derive(Record)] #[record(key = ..Key, phoenix)]` struct of
    /// the table's rows, as Rust source: the key's fields (of the struct
    /// [`key_struct`](Self::key_struct) prints), then every other column
    /// with its qualifier and type, an `Option` where it may be NULL.
    /// `None` for a table whose columns share one cell per family
    /// (`SINGLE_CELL_ARRAY_WITH_OFFSETS`), which records do not read.
    pub fn record_struct(&self) -> Option<String> {
        if self.storage == StorageScheme::SingleCellArrayWithOffsets {
            return None;
        }
        let name = type_name(&self.name);
        let bytes = self.encoded_bytes();
        let family = self.empty_column_family();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "/// A row of Phoenix table {}, from its SYSTEM.CATALOG.",
            self.full_name()
        );
        let _ = writeln!(out, "#[derive(rowkey::Record, Debug, Clone, PartialEq)]");
        let phoenix = match bytes {
            2 => "phoenix".to_owned(),
            n => format!("phoenix(column_encoded_bytes = {n})"),
        };
        let family_opt = match family {
            DEFAULT_FAMILY => String::new(),
            f => format!(", family = {f:?}"),
        };
        let _ = writeln!(out, "#[record(key = {name}Key, {phoenix}{family_opt})]");
        let _ = writeln!(out, "pub struct {name} {{");
        for c in self.key_columns() {
            let rust = rust_type(&c.ty);
            let rust = if c.nullable {
                format!("Option<{rust}>")
            } else {
                rust.to_owned()
            };
            let _ = writeln!(out, "    pub {}: {rust},", field_name(&c.name));
        }
        for c in self.value_columns() {
            let q = c.qualifier.as_deref().unwrap_or_default();
            let qualifier = match qualifier_number(bytes, q) {
                Some(n) if bytes > 0 => n.to_string(),
                _ => format!("{:?}", String::from_utf8_lossy(q)),
            };
            let mut opts = format!("qualifier = {qualifier}");
            if let Some(f) = c.family.as_deref().filter(|f| *f != family) {
                opts = format!("family = {f:?}, {opts}");
            }
            let _ = writeln!(out, "    #[cell({opts})]");
            let ty = c.ty.to_string().to_ascii_lowercase();
            let _ = writeln!(out, "    #[phoenix({ty})]");
            let rust = rust_type(&c.ty);
            let rust = if c.nullable {
                format!("Option<{rust}>")
            } else {
                rust.to_owned()
            };
            let _ = writeln!(out, "    pub {}: {rust},", field_name(&c.name));
        }
        out.push_str("}\n");
        Some(out)
    }

    /// Whether `R` reads and writes this table's rows: its key is the
    /// table's ([`check_key`](Self::check_key)), each of its cells is a
    /// column of the table (family and qualifier), its empty column is
    /// the table's, and the table keeps a cell per column. A record may
    /// leave columns out (its writes leave them as they are); the
    /// columns' types are the derive's to check against the struct.
    ///
    /// # Errors
    /// Every difference, each naming the column and both sides.
    pub fn check_record<R: Record>(&self) -> Result<(), Vec<KeyMismatch>> {
        let mut out = self.check_key::<R::Key>().err().unwrap_or_default();
        let whole = |ours: String, theirs: String| KeyMismatch {
            column: "*".into(),
            ours,
            theirs,
        };
        if self.storage == StorageScheme::SingleCellArrayWithOffsets {
            out.push(whole(
                "a record, a cell per column".into(),
                "IMMUTABLE_STORAGE_SCHEME = SINGLE_CELL_ARRAY_WITH_OFFSETS".into(),
            ));
        }
        let empty = (
            self.empty_column_family(),
            empty_column_qualifier(self.encoded_bytes()),
        );
        let columns = R::columns().unwrap_or_default();
        let hex = |q: &[u8]| q.iter().map(|b| format!("{b:02x}")).collect::<String>();
        if !columns.iter().any(|(f, q)| (f, q) == empty) {
            out.push(whole(
                "no cell at the empty column".into(),
                format!("the empty column {}:{}", empty.0, hex(empty.1)),
            ));
        }
        for (f, q) in columns.iter() {
            if (f, q) == empty {
                continue;
            }
            let found = self.value_columns().find(|c| {
                c.family.as_deref().unwrap_or(DEFAULT_FAMILY) == f
                    && c.qualifier.as_deref() == Some(q)
            });
            if found.is_none() {
                out.push(KeyMismatch {
                    column: format!("{f}:{}", hex(q)),
                    ours: "a cell".into(),
                    theirs: "no column there".into(),
                });
            }
        }
        if out.is_empty() {
            Ok(())
        } else {
            Err(out)
        }
    }
}
