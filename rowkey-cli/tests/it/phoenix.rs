//! `rowkey phoenix` as a user runs it, against a live Apache Phoenix
//! 5.2.1 (`rowkey_fixtures::hbase::phoenix`): the struct of a table
//! Phoenix made and of its rows, from its SYSTEM.CATALOG, then its cells and whether a
//! write from outside Phoenix is safe; and hostile input refused.

use crate::run::{fails, ok};
use rowkey_fixtures::hbase::phoenix;

#[test]
fn prints_the_struct_of_a_table_phoenix_made() {
    let p = phoenix();
    {
        let mut sql = p.sql();
        sql.must(
            "CREATE TABLE CLI_M (HOST VARCHAR NOT NULL, METRIC INTEGER NOT NULL, AT BIGINT NOT \
             NULL, V DOUBLE, NOTE VARCHAR(20) CONSTRAINT PK PRIMARY KEY (HOST, METRIC, AT DESC)) \
             SALT_BUCKETS=16",
        );
        sql.must("CREATE TABLE CLI_I (K VARCHAR PRIMARY KEY, V INTEGER)");
        sql.must("CREATE INDEX CLI_I_V ON CLI_I (V)");
    }
    let zk = p.hbase.zk_address();
    let out = ok(&["phoenix", "--store", &zk, "--table", "CLI_M"]);
    for line in [
        "#[derive(rowkey::RowKey, Debug, Clone, PartialEq)]\n#[rowkey(phoenix)]\npub struct CliMKey {",
        "    #[salt(buckets = 16)]\n    #[phoenix(varchar)]\n    #[max_len(256)]",
        "    pub host: String,",
        "    #[phoenix(integer)]\n    pub metric: i32,",
        "    #[phoenix(bigint)]\n    #[desc]\n    pub at: i64,\n}",
        "#[derive(rowkey::Record, Debug, Clone, PartialEq)]\n#[record(key = CliMKey, phoenix)]\npub struct CliM {\n    pub host: String,\n    pub metric: i32,\n    pub at: i64,\n",
        "    #[cell(qualifier = 11)]\n    #[phoenix(double)]\n    pub v: Option<f64>,\n",
        "    #[cell(qualifier = 12)]\n    #[phoenix(varchar(20))]\n    pub note: Option<String>,\n}",
        "// Cells: a cell per column, qualifiers 2-byte numbers (COLUMN_ENCODED_BYTES=2):",
        "//   0:V DOUBLE (qualifier 800b)",
        "//   0:NOTE VARCHAR(20) (qualifier 800c)",
        "// Writes: cells written as Phoenix writes them are all it needs.",
    ] {
        assert!(out.contains(line), "{line:?} not in\n{out}");
    }
    // A table with an index: writes go through Phoenix.
    let out = ok(&["phoenix", "--store", &zk, "--table", "CLI_I"]);
    assert!(
        out.contains("// Writes: through Phoenix only: CLI_I has indexes (CLI_I_V)"),
        "{out}"
    );
    // No such table, a schema that is not there: said, no panic.
    let err = fails(&["phoenix", "--store", &zk, "--table", "NOPE"]);
    assert!(err.contains("SYSTEM.CATALOG has no table NOPE"), "{err}");
    let err = fails(&[
        "phoenix", "--store", &zk, "--schema", "S", "--table", "CLI_M",
    ]);
    assert!(err.contains("SYSTEM.CATALOG has no table S.CLI_M"), "{err}");
    // An address that is no store's.
    let err = fails(&["phoenix", "--store", "nowhere", "--table", "CLI_M"]);
    assert!(err.contains("is no store's address"), "{err}");
}
