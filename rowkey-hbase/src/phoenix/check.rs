//! [`PhoenixTable::check_key`]: a key struct against the table's
//! definition.

use super::catalog::PhoenixTable;
use rowkey_core::layout::{FieldCodec, KeyPrefix};
use rowkey_core::RowKey;
use std::fmt;

/// One way a key struct differs from the table Phoenix's catalog
/// describes: the column (or `*` for the key as a whole) and both sides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyMismatch {
    /// The column, or `*`.
    pub column: String,
    /// What the struct says.
    pub ours: String,
    /// What Phoenix's catalog says.
    pub theirs: String,
}

impl fmt::Display for KeyMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: the struct has {}, Phoenix's catalog {}",
            self.column, self.ours, self.theirs
        )
    }
}

fn order(desc: bool) -> &'static str {
    if desc {
        "DESC"
    } else {
        "ASC"
    }
}

fn null(nullable: bool) -> &'static str {
    if nullable {
        "NULL-able"
    } else {
        "NOT NULL"
    }
}

impl PhoenixTable {
    /// Whether `K` is this table's primary key: a `#[rowkey(phoenix)]`
    /// struct with the key columns in order, each of the catalog's type,
    /// sort order and nullability, salted with the table's buckets.
    ///
    /// # Errors
    /// Every difference, each naming the column and both sides.
    pub fn check_key<K: RowKey>(&self) -> Result<(), Vec<KeyMismatch>> {
        let layout = K::layout();
        let mut out = Vec::new();
        let whole = |ours: String, theirs: String| KeyMismatch {
            column: "*".into(),
            ours,
            theirs,
        };
        let key: Vec<_> = self.key_columns().collect();
        if !layout.is_phoenix() {
            out.push(whole(
                format!("{}, not a #[rowkey(phoenix)] key", layout.name),
                format!("{}'s primary key", self.full_name()),
            ));
            return Err(out);
        }
        if layout.fields.len() != key.len() {
            out.push(whole(
                format!("{} key columns", layout.fields.len()),
                format!(
                    "{} ({})",
                    key.len(),
                    key.iter()
                        .map(|c| c.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        for (f, c) in layout.fields.iter().zip(&key) {
            let FieldCodec::Phoenix { ty, .. } = f.codec else {
                continue;
            };
            let mismatch = |ours: String, theirs: String| KeyMismatch {
                column: c.name.clone(),
                ours: format!("field `{}` {ours}", f.name),
                theirs,
            };
            if ty != c.ty {
                out.push(mismatch(ty.to_string(), c.ty.to_string()));
            }
            if f.desc != c.desc {
                out.push(mismatch(order(f.desc).into(), order(c.desc).into()));
            }
            if f.optional != c.nullable {
                out.push(mismatch(null(f.optional).into(), null(c.nullable).into()));
            }
        }
        let ours = match &layout.prefix {
            Some(KeyPrefix::Salt(s)) => Some(s.buckets),
            _ => None,
        };
        if ours != self.salt_buckets {
            let says =
                |n: Option<u32>| n.map_or("no salt".to_owned(), |n| format!("SALT_BUCKETS={n}"));
            out.push(whole(says(ours), says(self.salt_buckets)));
        }
        if out.is_empty() {
            Ok(())
        } else {
            Err(out)
        }
    }
}
