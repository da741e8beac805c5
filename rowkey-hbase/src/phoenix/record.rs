//! [`PhoenixTable::record_struct`] and [`PhoenixTable::check_record`]: a
//! table's whole row as a `#[derive(Record)] #[record(phoenix)]` struct,
//! and such a struct checked against the table.

use super::catalog::{PhoenixTable, QualifierEncoding, StorageScheme};
use super::check::KeyMismatch;
use super::describe::{field_name, field_type, type_name};
use rowkey_core::codec::phoenix::{
    empty_column_qualifier, qualifier_number, DEFAULT_FAMILY, SINGLE_CELL_QUALIFIER,
};
use rowkey_store::Record;
use std::fmt::Write;

impl PhoenixTable {
    /// The family of the table's empty column
    /// (`SchemaUtil.getEmptyColumnFamily`): its first non-key column's
    /// (by position), else its `DEFAULT_COLUMN_FAMILY`, else `0`.
    pub fn empty_column_family(&self) -> &str {
        let mut columns: Vec<_> = self.value_columns().collect();
        columns.sort_by_key(|c| c.ordinal);
        columns
            .first()
            .map(|c| c.family.as_deref().unwrap_or(DEFAULT_FAMILY))
            .or(self.default_family.as_deref())
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
    /// with its qualifier and type, an `Option` where it may be NULL (and
    /// `phoenix(single_cell_array_with_offsets)` for a table that keeps a
    /// family's columns in one cell).
    pub fn record_struct(&self) -> String {
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
        let mut options = Vec::new();
        if bytes != 2 {
            options.push(format!("column_encoded_bytes = {bytes}"));
        }
        if self.storage == StorageScheme::SingleCellArrayWithOffsets {
            options.push("single_cell_array_with_offsets".to_owned());
        }
        let phoenix = match options.is_empty() {
            true => "phoenix".to_owned(),
            false => format!("phoenix({})", options.join(", ")),
        };
        let family_opt = match family {
            DEFAULT_FAMILY => String::new(),
            f => format!(", family = {f:?}"),
        };
        let _ = writeln!(out, "#[record(key = {name}Key, {phoenix}{family_opt})]");
        let _ = writeln!(out, "pub struct {name} {{");
        // Key fields by name; a value column whose name is taken (a key
        // column's, or the same name in another family) gets its family's.
        let mut names: Vec<String> = Vec::new();
        for c in self.key_columns() {
            let rust = field_type(c);
            let name = field_name(&c.name);
            let _ = writeln!(out, "    pub {name}: {rust},");
            names.push(name);
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
            let rust = field_type(c);
            let mut name = field_name(&c.name);
            if names.contains(&name) {
                let f = c.family.as_deref().unwrap_or(DEFAULT_FAMILY);
                name = field_name(&format!("{f}_{}", c.name));
            }
            let _ = writeln!(out, "    pub {name}: {rust},");
            names.push(name);
        }
        out.push_str("}\n");
        out
    }

    /// Whether `R` reads and writes this table's rows: its key is the
    /// table's ([`check_key`](Self::check_key)), it stores the columns as
    /// the table does (a cell per column, or a family's in one cell), each
    /// of its cells is one the table has (family and qualifier; for packed
    /// cells, a cell of each of the table's families), and its empty
    /// column is the table's. A record of a cell per column may leave
    /// columns out (its writes leave them as they are); a packed record
    /// must hold every column of its families, since a write replaces a
    /// family's cell, and the numbers inside a packed cell are not seen
    /// here: write the struct [`record_struct`](Self::record_struct)
    /// prints. The columns' types are the derive's to check against the
    /// struct.
    ///
    /// # Errors
    /// Every difference, each naming the column and both sides.
    pub fn check_record<R: Record>(&self) -> Result<(), Vec<KeyMismatch>> {
        let mut out = self.check_key::<R::Key>().err().unwrap_or_default();
        let whole = |ours: &str, theirs: &str| KeyMismatch {
            column: "*".into(),
            ours: ours.into(),
            theirs: theirs.into(),
        };
        let empty = (
            self.empty_column_family(),
            empty_column_qualifier(self.encoded_bytes()),
        );
        let columns = R::columns().unwrap_or_default();
        let single = self.storage == StorageScheme::SingleCellArrayWithOffsets;
        // A packed family's cell, `1`: unless it is a column of the table
        // (a 1-byte encoded table's column 177 is `31` too).
        let packed = columns.iter().any(|(f, q)| {
            q == SINGLE_CELL_QUALIFIER
                && !self.value_columns().any(|c| {
                    c.family.as_deref().unwrap_or(DEFAULT_FAMILY) == f
                        && c.qualifier.as_deref() == Some(q)
                })
        });
        match (single, packed) {
            (true, false) => out.push(whole(
                "a record of a cell per column",
                "IMMUTABLE_STORAGE_SCHEME = SINGLE_CELL_ARRAY_WITH_OFFSETS: add \
                 single_cell_array_with_offsets to #[record(phoenix(..))]",
            )),
            (false, true) => out.push(whole(
                "a record of SINGLE_CELL_ARRAY_WITH_OFFSETS",
                "a cell per column",
            )),
            _ => {}
        }
        let hex = |q: &[u8]| q.iter().map(|b| format!("{b:02x}")).collect::<String>();
        if !columns.iter().any(|(f, q)| (f, q) == empty) {
            out.push(KeyMismatch {
                column: format!("{}:{}", empty.0, hex(empty.1)),
                ours: "no cell at the empty column".into(),
                theirs: "the empty column".into(),
            });
        }
        for (f, q) in columns.iter() {
            if (f, q) == empty || (single && packed) {
                continue;
            }
            let found = self.value_columns().any(|c| {
                c.family.as_deref().unwrap_or(DEFAULT_FAMILY) == f
                    && c.qualifier.as_deref() == Some(q)
            });
            if !found {
                out.push(KeyMismatch {
                    column: format!("{f}:{}", hex(q)),
                    ours: "a cell".into(),
                    theirs: "no column there".into(),
                });
            }
        }
        if single && packed {
            // Phoenix writes every family's cell: a record must too.
            let mut families: Vec<&str> = Vec::new();
            for c in self.value_columns() {
                let f = c.family.as_deref().unwrap_or(DEFAULT_FAMILY);
                if !families.contains(&f) {
                    families.push(f);
                }
            }
            for f in families {
                if !columns
                    .iter()
                    .any(|(g, q)| g == f && q == SINGLE_CELL_QUALIFIER)
                {
                    out.push(KeyMismatch {
                        column: format!("{f}:{}", hex(SINGLE_CELL_QUALIFIER)),
                        ours: "no cell for the family".into(),
                        theirs: "the family's packed cell".into(),
                    });
                }
            }
        }
        if out.is_empty() {
            Ok(())
        } else {
            Err(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::catalog::{PhoenixColumnDef, TableKind};
    use super::*;
    use rowkey_core::codec::phoenix::PhoenixType;

    fn column(name: &str, family: Option<&str>, ordinal: u32, q: Option<u8>) -> PhoenixColumnDef {
        PhoenixColumnDef {
            name: name.into(),
            family: family.map(str::to_owned),
            ty: PhoenixType::Integer,
            nullable: family.is_some(),
            desc: false,
            key_seq: family.is_none().then_some(1),
            ordinal,
            qualifier: q.map(|n| vec![0x80, n]),
            row_timestamp: false,
        }
    }

    fn table(columns: Vec<PhoenixColumnDef>, default_family: Option<&str>) -> PhoenixTable {
        PhoenixTable {
            schema: None,
            name: "T".into(),
            kind: TableKind::Table,
            columns,
            salt_buckets: None,
            encoding: QualifierEncoding::Bytes(2),
            storage: StorageScheme::OneCellPerColumn,
            immutable: false,
            transactional: false,
            view_statement: None,
            indexes: Vec::new(),
            default_family: default_family.map(str::to_owned),
        }
    }

    #[test]
    fn the_empty_column_is_in_the_first_column_s_family() {
        // CREATE TABLE T (K INTEGER PRIMARY KEY, B.X INTEGER, Y INTEGER)
        //   DEFAULT_COLUMN_FAMILY = 'D': Y is in D, the empty column in B.
        let t = table(
            vec![
                column("K", None, 1, None),
                column("Y", Some("D"), 3, Some(12)),
                column("X", Some("B"), 2, Some(11)),
            ],
            Some("D"),
        );
        assert_eq!(t.empty_column_family(), "B");
        // No value column: the default family, else 0.
        assert_eq!(
            table(vec![column("K", None, 1, None)], Some("D")).empty_column_family(),
            "D"
        );
        assert_eq!(
            table(vec![column("K", None, 1, None)], None).empty_column_family(),
            "0"
        );
    }

    #[test]
    fn record_struct_field_names_never_collide() {
        // A.K and B.K, besides the key column K.
        let t = table(
            vec![
                column("K", None, 1, None),
                column("K", Some("A"), 2, Some(11)),
                column("K", Some("B"), 3, Some(12)),
            ],
            None,
        );
        let source = t.record_struct();
        for line in [
            "#[record(key = TKey, phoenix, family = \"A\")]",
            "    pub k: i32,\n",
            "    #[cell(qualifier = 11)]\n    #[phoenix(integer)]\n    pub a_k: Option<i32>,",
            "    #[cell(family = \"B\", qualifier = 12)]\n    #[phoenix(integer)]\n    pub b_k: Option<i32>,",
        ] {
            assert!(source.contains(line), "{line:?} not in\n{source}");
        }
    }
}
