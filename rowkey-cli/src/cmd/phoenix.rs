//! `rowkey phoenix`: the `#[rowkey(phoenix)]` struct of an Apache Phoenix
//! table's primary key and the `#[record(phoenix)]` struct of its rows,
//! read from Phoenix's own `SYSTEM.CATALOG` (`rowkey_hbase::phoenix`), so
//! nobody writes them by hand.

use super::read::{block_on, open};
use super::CmdResult;
use crate::out::out;
use rowkey_hbase::phoenix::{PhoenixTable, QualifierEncoding, StorageScheme, SYSTEM_CATALOG};

/// Prints the key struct and the record struct of table `table` (in
/// `schema`) of the HBase at `address`, then, as comments, how its cells are stored and whether a
/// write from outside Phoenix leaves it as Phoenix would.
pub fn phoenix(address: &str, schema: Option<&str>, table: &str) -> CmdResult {
    let def = block_on(async {
        let catalog = open(address, SYSTEM_CATALOG).await?;
        PhoenixTable::read(&catalog, schema, table)
            .await
            .map_err(|e| e.to_string())
    })?;
    out!("{}", def.key_struct())?;
    out!("\n{}", def.record_struct())?;
    let encoding = match def.encoding {
        QualifierEncoding::None => "each column's name".to_owned(),
        QualifierEncoding::Bytes(n) => format!("{n}-byte numbers (COLUMN_ENCODED_BYTES={n})"),
    };
    let storage = match def.storage {
        StorageScheme::OneCellPerColumn => "a cell per column",
        StorageScheme::SingleCellArrayWithOffsets => {
            "one cell per family (SINGLE_CELL_ARRAY_WITH_OFFSETS)"
        }
    };
    out!("\n// Cells: {storage}, qualifiers {encoding}:\n")?;
    for c in def.value_columns() {
        let q: String = c
            .qualifier
            .iter()
            .flatten()
            .map(|b| format!("{b:02x}"))
            .collect();
        out!(
            "//   {}:{} {} (qualifier {q})\n",
            c.family.as_deref().unwrap_or("0"),
            c.name,
            c.ty
        )?;
    }
    match def.write_refusal() {
        Some(why) => out!("// Writes: through Phoenix only: {why}.\n")?,
        None => out!("// Writes: cells written as Phoenix writes them are all it needs.\n")?,
    }
    Ok(())
}
