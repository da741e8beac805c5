//! Tables of a real Apache Phoenix 5.2.1 (on the harness's HBase 2.6.1,
//! `rowkey_fixtures::hbase::phoenix`), read and written natively with
//! `rowkey::codec::phoenix`:
//!
//! - tables Phoenix created and filled with SQL (salted and not, DESC
//!   columns, NULL-able key columns in the middle and at the end,
//!   `VARCHAR`, `CHAR`, `DECIMAL(p,s)`, signed and unsigned integers,
//!   `DOUBLE`) are scanned natively, every key decoded, and every value
//!   equals what Phoenix's JDBC `SELECT` returns;
//! - rows written natively from Rust (the key, Phoenix's empty-column
//!   cell and a value cell at the qualifier Phoenix's catalog assigned)
//!   are what Phoenix's `SELECT`, with a `WHERE` on each key column and an
//!   `ORDER BY`, returns.
//!
//! - typed records (`records.rs`) both ways;
//! - reads by leading key columns and `IN`-lists (`queries.rs`) against
//!   Phoenix's `SELECT .. WHERE`;
//! - `TIMESTAMP`s below the millisecond (`timestamps.rs`).
//!
//! Phoenix starts once for the binary (HBase about 17 s, its first JDBC
//! connection about 25 s).

mod queries;
mod records;
mod scans;
mod timestamps;

use futures::TryStreamExt;
use hbase_native::{Client, RowMutation, Scan};
use rowkey::codec::phoenix::{
    column_value, double_bytes, finish_key, finish_read, put_column, take_column, PhoenixColumn,
    PhoenixKeyLen, PhoenixTimestamp, PhoenixType, PhoenixValue,
};
use rowkey::salt::{phoenix_bucket, phoenix_hash};
use rowkey::{KeyReader, KeyWriter, RowKey};
use rowkey_fixtures::hbase::{phoenix, PhoenixSql};
use rowkey_fixtures::layouts::{PhoenixMetric, Rng};
use rust_decimal::Decimal;
use std::str::FromStr;

/// A key column's value, as the tests write and compare it.
#[derive(Debug, Clone, PartialEq)]
enum Val {
    Text(Option<String>),
    Char(String),
    Dec(Decimal),
    I64(i64),
    I32(i32),
    I16(i16),
    I8(i8),
    U32(u32),
    F64(f64),
    /// A `DATE`: milliseconds.
    Date(i64),
    /// A `TIMESTAMP` of whole milliseconds (SQL literals carry no more).
    Ts(PhoenixTimestamp),
}

impl Val {
    /// As a SQL literal.
    fn literal(&self) -> String {
        match self {
            Val::Text(None) => "NULL".into(),
            Val::Text(Some(s)) | Val::Char(s) => format!("'{}'", s.replace('\'', "''")),
            Val::Dec(d) => d.to_string(),
            Val::I64(v) => v.to_string(),
            Val::I32(v) => v.to_string(),
            Val::I16(v) => v.to_string(),
            Val::I8(v) => v.to_string(),
            Val::U32(v) => v.to_string(),
            Val::F64(v) => format!("{v:?}"),
            Val::Date(ms) => format!("CAST({ms} AS DATE)"),
            Val::Ts(t) => format!("CAST({} AS TIMESTAMP)", t.millis()),
        }
    }

    /// Whether `jdbc` (what `getString` gave) is this value.
    fn is(&self, jdbc: &Option<String>) -> bool {
        match (self, jdbc) {
            (Val::Text(v), j) => v == j,
            (_, None) => false,
            (Val::Char(s), Some(j)) => s == j,
            // Phoenix's getString groups a DECIMAL's digits: -88,999,990.
            (Val::Dec(d), Some(j)) => {
                let j = j.replace(',', "");
                Decimal::from_scientific(&j)
                    .or_else(|_| Decimal::from_str(&j))
                    .is_ok_and(|x| x.normalize() == d.normalize())
            }
            (Val::F64(v), Some(j)) => j.parse::<f64>().is_ok_and(|x| x == *v),
            // Selected as TO_NUMBER(..): milliseconds, digits grouped.
            (Val::Date(ms), Some(j)) => j.replace(',', "") == ms.to_string(),
            (Val::Ts(t), Some(j)) => j.replace(',', "") == t.millis().to_string(),
            (v, Some(j)) => v.literal() == *j,
        }
    }

    fn put(&self, w: &mut KeyWriter<'_>, col: &PhoenixColumn, len: &mut PhoenixKeyLen) {
        let r = match self {
            Val::Text(v) => put_column(w, v, col, len),
            Val::Char(v) => put_column(w, v, col, len),
            Val::Dec(v) => put_column(w, v, col, len),
            Val::I64(v) => put_column(w, v, col, len),
            Val::I32(v) => put_column(w, v, col, len),
            Val::I16(v) => put_column(w, v, col, len),
            Val::I8(v) => put_column(w, v, col, len),
            Val::U32(v) => put_column(w, v, col, len),
            Val::F64(v) => put_column(w, v, col, len),
            Val::Date(v) => put_column(w, v, col, len),
            Val::Ts(v) => put_column(w, v, col, len),
        };
        r.unwrap_or_else(|e| panic!("{self:?}: {e}"));
    }
}

/// A Phoenix table as these tests declare it: its key columns (name,
/// SQL type, DESC, NOT NULL) and its salt buckets.
struct Table {
    name: &'static str,
    key: Vec<(&'static str, PhoenixType, bool, bool)>,
    salt: Option<u32>,
}

impl Table {
    fn columns(&self) -> Vec<PhoenixColumn> {
        let n = self.key.len();
        self.key
            .iter()
            .enumerate()
            .map(|(i, &(_, ty, desc, _))| PhoenixColumn {
                ty,
                desc,
                last: i + 1 == n,
                max_len: None,
            })
            .collect()
    }

    /// The columns to select, a `DATE` or `TIMESTAMP` as its
    /// milliseconds (JDBC would format it as a local date-time).
    fn select_list(&self) -> String {
        let mut cols: Vec<String> = self
            .key
            .iter()
            .map(|(n, ty, ..)| match ty {
                PhoenixType::Date | PhoenixType::Timestamp => format!("TO_NUMBER({n})"),
                _ => (*n).to_owned(),
            })
            .collect();
        cols.push("V".into());
        cols.join(", ")
    }

    fn create(&self, value: &str) -> String {
        let cols: Vec<String> = self
            .key
            .iter()
            .map(|(n, ty, _, not_null)| {
                format!("{n} {ty}{}", if *not_null { " NOT NULL" } else { "" })
            })
            .collect();
        let pk: Vec<String> = self
            .key
            .iter()
            .map(|(n, _, desc, _)| format!("{n}{}", if *desc { " DESC" } else { "" }))
            .collect();
        let salt = self
            .salt
            .map_or(String::new(), |n| format!(" SALT_BUCKETS={n}"));
        format!(
            "CREATE TABLE {} ({}, V {value} CONSTRAINT PK PRIMARY KEY ({})){salt}",
            self.name,
            cols.join(", "),
            pk.join(", ")
        )
    }

    /// The key of `row`, salt byte and all.
    fn encode(&self, row: &[Val]) -> Vec<u8> {
        let mut out = vec![0u8; 1024];
        let prefix = usize::from(self.salt.is_some());
        let mut w = KeyWriter::new(&mut out, self.name);
        if prefix == 1 {
            w.put_byte(0).unwrap();
        }
        let mut len = PhoenixKeyLen::new(prefix);
        for (v, col) in row.iter().zip(self.columns()) {
            v.put(&mut w, &col, &mut len);
        }
        finish_key(&mut w, &len).unwrap();
        let n = w.finish();
        out.truncate(n);
        if let Some(buckets) = self.salt {
            out[0] = phoenix_bucket(phoenix_hash(&out[1..]), buckets) as u8;
        }
        out
    }

    /// The row of `key`, as `template`'s kinds.
    fn decode(&self, key: &[u8], template: &[Val]) -> Vec<Val> {
        let prefix = usize::from(self.salt.is_some());
        if let Some(buckets) = self.salt {
            let bucket = phoenix_bucket(phoenix_hash(&key[1..]), buckets);
            assert_eq!(u32::from(key[0]), bucket, "{key:02x?}: the salt byte");
        }
        let mut r = KeyReader::new(key, self.name);
        r.take(prefix).unwrap();
        let mut end = PhoenixKeyLen::new(prefix);
        let mut row = Vec::new();
        for (t, col) in template.iter().zip(self.columns()) {
            let raw =
                take_column(&mut r, &col, &mut end).unwrap_or_else(|e| panic!("{key:02x?}: {e}"));
            fn v<T: PhoenixValue>(raw: Option<&[u8]>, col: &PhoenixColumn, key: &[u8]) -> T {
                column_value(raw, col).unwrap_or_else(|e| panic!("{key:02x?}: {e:?}"))
            }
            row.push(match t {
                Val::Text(_) => Val::Text(v(raw, &col, key)),
                Val::Char(_) => Val::Char(v(raw, &col, key)),
                Val::Dec(_) => Val::Dec(v(raw, &col, key)),
                Val::I64(_) => Val::I64(v(raw, &col, key)),
                Val::I32(_) => Val::I32(v(raw, &col, key)),
                Val::I16(_) => Val::I16(v(raw, &col, key)),
                Val::I8(_) => Val::I8(v(raw, &col, key)),
                Val::U32(_) => Val::U32(v(raw, &col, key)),
                Val::F64(_) => Val::F64(v(raw, &col, key)),
                Val::Date(_) => Val::Date(v(raw, &col, key)),
                Val::Ts(_) => Val::Ts(v(raw, &col, key)),
            });
        }
        finish_read(&r, &end).unwrap_or_else(|e| panic!("{key:02x?}: {e}"));
        row
    }
}

fn metrics(name: &'static str) -> Table {
    Table {
        name,
        key: vec![
            (
                "HOST",
                PhoenixType::Varchar { max_chars: None },
                false,
                true,
            ),
            ("METRIC", PhoenixType::Integer, false, true),
            ("AT", PhoenixType::BigInt, true, true),
        ],
        salt: Some(16),
    }
}

fn mixed(name: &'static str) -> Table {
    Table {
        name,
        key: vec![
            (
                "A",
                PhoenixType::Varchar { max_chars: Some(8) },
                true,
                false,
            ),
            (
                "B",
                PhoenixType::Decimal {
                    precision: Some(10),
                    scale: Some(2),
                },
                false,
                true,
            ),
            ("C", PhoenixType::Char { len: 3 }, true, true),
            ("D", PhoenixType::SmallInt, true, true),
            ("E", PhoenixType::Varchar { max_chars: None }, false, false),
        ],
        salt: None,
    }
}

fn numbers(name: &'static str) -> Table {
    Table {
        name,
        key: vec![
            ("U", PhoenixType::UnsignedInt, false, true),
            ("T", PhoenixType::TinyInt, true, true),
            ("F", PhoenixType::Double, true, true),
            ("L", PhoenixType::BigInt, false, true),
        ],
        salt: Some(4),
    }
}

fn times(name: &'static str) -> Table {
    Table {
        name,
        key: vec![
            ("D", PhoenixType::Date, false, true),
            ("T", PhoenixType::Timestamp, true, true),
            ("L", PhoenixType::BigInt, false, true),
        ],
        salt: None,
    }
}

fn text(rng: &mut Rng, null_one_in: u64) -> Option<String> {
    if null_one_in > 0 && rng.below(null_one_in) == 0 {
        return None;
    }
    let alphabet = ["a", "b", "web", "é", "z-1", "Ω", "x y"];
    let n = 1 + rng.below(3);
    Some(
        (0..n)
            .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
            .collect(),
    )
}

/// A random row of `table`'s columns (the tables above).
fn row(table: &Table, rng: &mut Rng) -> Vec<Val> {
    match table.key[0].0 {
        "HOST" => vec![
            Val::Text(text(rng, 0)),
            Val::I32(rng.next_u64() as i32 >> rng.below(32)),
            Val::I64(1_700_000_000_000 + rng.below(1 << 30) as i64),
        ],
        "A" => vec![
            // VARCHAR(8): at most 8 characters.
            Val::Text(text(rng, 4).map(|t| t.chars().take(8).collect())),
            Val::Dec(Decimal::new(
                rng.next_u64() as i64 % 100_000_000,
                rng.below(3) as u32,
            )),
            Val::Char(["ab", "abc", "x", "Z9"][rng.below(4) as usize].into()),
            Val::I16(rng.next_u64() as i16),
            Val::Text(text(rng, 3)),
        ],
        "D" => {
            // 1900 to 2100, before and after the epoch.
            let ms = |rng: &mut Rng| rng.below(6_311_520_000_000) as i64 - 2_208_988_800_000;
            vec![
                Val::Date(ms(rng)),
                Val::Ts(PhoenixTimestamp::from_millis(ms(rng))),
                Val::I64(rng.next_u64() as i64),
            ]
        }
        _ => vec![
            Val::U32((rng.next_u64() >> 33) as u32),
            Val::I8(rng.next_u64() as i8),
            Val::F64((rng.next_u64() as i32 >> rng.below(31)) as f64 / 4.0),
            Val::I64(rng.next_u64() as i64),
        ],
    }
}

fn upsert(table: &Table, row: &[Val], value: &str) -> String {
    let names: Vec<&str> = table.key.iter().map(|k| k.0).collect();
    let values: Vec<String> = row.iter().map(Val::literal).collect();
    format!(
        "UPSERT INTO {} ({}, V) VALUES ({}, {value})",
        table.name,
        names.join(", "),
        values.join(", ")
    )
}

/// Runs `f` with the JDBC connection (its lock held by no `await`).
fn with_sql<R>(f: impl FnOnce(&mut PhoenixSql) -> R) -> R {
    f(&mut phoenix().sql())
}

async fn native() -> Client {
    Client::connect(&phoenix().hbase.zk_address())
        .await
        .expect("the native client connects")
}

/// Every key of the HBase table `name`, read through HBase's Thrift 1
/// server (the store's other transport).
async fn thrift_keys(name: &str) -> Vec<Vec<u8>> {
    use rowkey::store::{ReadRequest, Store};
    let client = rowkey_hbase::HBaseClient::connect(&phoenix().hbase.thrift)
        .await
        .unwrap();
    client
        .table(name)
        .read_rows(ReadRequest::new([rowkey::store::KeyRange::new(
            Vec::new(),
            None,
        )]))
        .map_ok(|r| r.key)
        .try_collect()
        .await
        .expect("a Thrift scan")
}

/// Every key of the HBase table `name`, in key order.
async fn keys(client: &Client, name: &str) -> Vec<Vec<u8>> {
    client
        .scan(name, Scan::all())
        .map_ok(|r| r.row)
        .try_collect()
        .await
        .expect("a native scan")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_phoenix_filled_read_natively_as_jdbc_reads_them() {
    let client = native().await;
    for (table, seed) in [
        (metrics("R_M"), 1),
        (mixed("R_X"), 2),
        (numbers("R_N"), 3),
        (times("R_T"), 4),
    ] {
        let mut rng = Rng(seed);
        let (rows, selected) = with_sql(|sql| {
            sql.must(&table.create("BIGINT"));
            let mut rows = Vec::new();
            for i in 0..150 {
                let r = row(&table, &mut rng);
                sql.must(&upsert(&table, &r, &i.to_string()));
                rows.push(r);
            }
            let selected = sql.query(&format!(
                "SELECT {} FROM {}",
                table.select_list(),
                table.name
            ));
            (rows, selected.unwrap())
        });
        let template = rows[0].clone();
        let decoded: Vec<Vec<Val>> = keys(&client, table.name)
            .await
            .iter()
            .map(|k| table.decode(k, &template))
            .collect();
        assert_eq!(decoded.len(), selected.len(), "{}: rows", table.name);
        // Each row read natively is one JDBC returned, value for value.
        for row in &decoded {
            let found = selected
                .iter()
                .filter(|s| row.iter().zip(s.iter()).all(|(v, j)| v.is(j)))
                .count();
            assert_eq!(found, 1, "{}: {row:?} in {selected:?}", table.name);
            // And it encodes back to the key Phoenix wrote.
            let key = table.encode(row);
            assert_eq!(table.decode(&key, &template), *row);
        }
        // Through HBase's Thrift 1 server, the same keys.
        assert_eq!(
            thrift_keys(table.name).await,
            keys(&client, table.name).await,
            "{}",
            table.name
        );
        // The derived key reads and writes the same bytes.
        if table.key[0].0 == "HOST" {
            for key in keys(&client, table.name).await {
                let m = PhoenixMetric::decode(&key).expect("a key Phoenix wrote");
                assert_eq!(m.to_vec().unwrap(), key);
                let row = table.decode(&key, &template);
                assert_eq!(
                    row,
                    [
                        Val::Text(Some(m.host.clone())),
                        Val::I32(m.metric),
                        Val::I64(m.at)
                    ]
                );
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rows_written_natively_are_what_phoenix_selects() {
    let client = native().await;
    for (table, seed) in [
        (metrics("W_M"), 11),
        (mixed("W_X"), 12),
        (numbers("W_N"), 13),
        (times("W_T"), 14),
    ] {
        let mut rng = Rng(seed);
        let q = with_sql(|sql| {
            sql.must(&table.create("DOUBLE"));
            // The value column's qualifier, as Phoenix's catalog assigned it.
            sql.query(&format!(
                "SELECT COLUMN_QUALIFIER FROM SYSTEM.CATALOG WHERE TABLE_NAME = '{}' \
                 AND COLUMN_NAME = 'V'",
                table.name
            ))
            .unwrap()
        });
        // JDBC shows a VARBINARY as its bytes in hex.
        let shown = q[0][0].clone().expect("V's qualifier");
        let qualifier: Vec<u8> = (0..shown.len() / 2)
            .map(|i| u8::from_str_radix(&shown[2 * i..2 * i + 2], 16).expect("hex"))
            .collect();
        assert_eq!(
            qualifier,
            [0x80, 0x0b],
            "Phoenix's first encoded qualifier, 11"
        );
        let mut rows = Vec::new();
        let mut writes = Vec::new();
        for i in 0..150 {
            let r = row(&table, &mut rng);
            let mut m = RowMutation::put(table.encode(&r));
            // Phoenix's empty column, then V.
            m = m.set(b"0", &[0, 0, 0, 0], b"x");
            m = m.set(b"0", &qualifier, &double_bytes(f64::from(i)));
            writes.push(m);
            rows.push((r, i));
        }
        client
            .mutate(table.name, writes)
            .await
            .expect("native writes");
        with_sql(|sql| check_selects(sql, &table, &rows));
    }
}

/// What Phoenix selects of `rows` written natively to `table`: every row
/// in key order, and a `WHERE` on each key column.
fn check_selects(sql: &mut PhoenixSql, table: &Table, rows: &[(Vec<Val>, i32)]) {
    // Every row, in Phoenix's key order.
    let order: Vec<String> = table
        .key
        .iter()
        .map(|(n, _, desc, _)| format!("{n}{}", if *desc { " DESC" } else { "" }))
        .collect();
    let all = sql
        .query(&format!(
            "SELECT {} FROM {} ORDER BY {}",
            table.select_list(),
            table.name,
            order.join(", ")
        ))
        .unwrap();
    assert_eq!(all.len(), rows.len(), "{}", table.name);
    // Phoenix's ORDER BY of the key columns is the order of the keys'
    // bytes after the salt byte.
    let salt = usize::from(table.salt.is_some());
    let keys_in_order: Vec<Vec<u8>> = all
        .iter()
        .map(|s| {
            let (r, _) = rows
                .iter()
                .find(|(r, _)| r.iter().zip(s.iter()).all(|(v, j)| v.is(j)))
                .unwrap_or_else(|| panic!("{}: {s:?} was not written", table.name));
            table.encode(r)[salt..].to_vec()
        })
        .collect();
    assert!(
        keys_in_order.windows(2).all(|w| w[0] < w[1]),
        "{}: ORDER BY is not the keys' order",
        table.name
    );
    for (r, i) in rows {
        let found = all
            .iter()
            .filter(|s| r.iter().zip(s.iter()).all(|(v, j)| v.is(j)))
            .collect::<Vec<_>>();
        assert_eq!(found.len(), 1, "{}: {r:?}", table.name);
        assert!(Val::F64(f64::from(*i)).is(&found[0][table.key.len()]));
    }
    // A WHERE on each key column finds the rows that hold it.
    for (c, (name, ..)) in table.key.iter().enumerate() {
        let v = &rows[7].0[c];
        let test = match v {
            Val::Text(None) => format!("{name} IS NULL"),
            v => format!("{name} = {}", v.literal()),
        };
        let n = sql
            .query(&format!("SELECT COUNT(*) FROM {} WHERE {test}", table.name))
            .unwrap();
        let want = rows.iter().filter(|(r, _)| r[c] == *v).count();
        assert_eq!(n[0][0], Some(want.to_string()), "{}: {test}", table.name);
    }
}

/// A struct that is not R_C's key: METRIC's order, AT's type and order
/// differ.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(phoenix)]
struct WrongKey {
    #[salt(buckets = 16)]
    #[max_len(64)]
    host: String,
    #[desc]
    metric: i32,
    #[phoenix(integer)]
    at: i32,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn definitions_come_from_phoenix_own_catalog() {
    use rowkey_hbase::phoenix::{
        PhoenixTable, QualifierEncoding, StorageScheme, TableKind, SYSTEM_CATALOG,
    };
    with_sql(|sql| {
        sql.must(&metrics("R_C").create("DOUBLE"));
        sql.must(&mixed("R_CX").create("VARCHAR(3)"));
        sql.must(
            "CREATE TABLE R_CI (K VARCHAR PRIMARY KEY, V1 INTEGER, V2 VARCHAR) \
             COLUMN_ENCODED_BYTES=0",
        );
        sql.must("CREATE INDEX R_CI_V1 ON R_CI (V1)");
        sql.must("CREATE VIEW R_CV AS SELECT * FROM R_CI WHERE V1 = 7");
        sql.must(
            "CREATE TABLE R_CT (T DATE NOT NULL, K INTEGER NOT NULL, V INTEGER \
             CONSTRAINT PK PRIMARY KEY (T ROW_TIMESTAMP, K)) \
             IMMUTABLE_ROWS=true, IMMUTABLE_STORAGE_SCHEME=SINGLE_CELL_ARRAY_WITH_OFFSETS",
        );
    });
    let client = rowkey_hbase::HBaseClient::connect(&phoenix().hbase.zk_address())
        .await
        .unwrap();
    let catalog = client.table(SYSTEM_CATALOG);

    let m = PhoenixTable::read(&catalog, None, "R_C").await.unwrap();
    // Through HBase's Thrift 1 server, the same definition.
    let thrift = rowkey_hbase::HBaseClient::connect(&phoenix().hbase.thrift)
        .await
        .unwrap();
    let thrift_catalog = thrift.table(SYSTEM_CATALOG);
    assert_eq!(
        PhoenixTable::read(&thrift_catalog, None, "R_C")
            .await
            .unwrap(),
        m
    );
    assert_eq!(m.kind, TableKind::Table);
    assert_eq!(m.salt_buckets, Some(16));
    assert_eq!(m.encoding, QualifierEncoding::Bytes(2));
    assert_eq!(m.storage, StorageScheme::OneCellPerColumn);
    let key: Vec<_> = m
        .key_columns()
        .map(|c| (c.name.as_str(), c.ty, c.desc))
        .collect();
    assert_eq!(
        key,
        [
            ("HOST", PhoenixType::Varchar { max_chars: None }, false),
            ("METRIC", PhoenixType::Integer, false),
            ("AT", PhoenixType::BigInt, true),
        ]
    );
    let v: Vec<_> = m.value_columns().collect();
    assert_eq!(v[0].name, "V");
    assert_eq!(v[0].qualifier.as_deref(), Some(&[0x80, 0x0b][..]));
    assert_eq!(v[0].family.as_deref(), Some("0"));
    assert_eq!(m.write_refusal(), None);
    // The fixtures' key is the table's; a wrong one names each column.
    m.check_key::<PhoenixMetric>().unwrap();
    let wrong = m.check_key::<WrongKey>().unwrap_err();
    let said: Vec<String> = wrong.iter().map(ToString::to_string).collect();
    assert_eq!(said.len(), 3, "{said:?}");
    assert!(
        said[0].starts_with("METRIC: the struct has field `metric` DESC, Phoenix's catalog ASC"),
        "{said:?}"
    );
    assert!(
        said[1].starts_with("AT: the struct has field `at` INTEGER, Phoenix's catalog BIGINT"),
        "{said:?}"
    );
    assert!(
        said[2].starts_with("AT: the struct has field `at` ASC, Phoenix's catalog DESC"),
        "{said:?}"
    );
    // The generated struct is the fixtures' key, line for line in effect.
    let text = m.key_struct();
    for line in [
        "#[rowkey(phoenix)]",
        "pub struct RCKey {",
        "    #[salt(buckets = 16)]\n    #[phoenix(varchar)]\n    #[max_len(256)]",
        "    pub host: String,",
        "    #[phoenix(integer)]\n    pub metric: i32,",
        "    #[phoenix(bigint)]\n    #[desc]\n    pub at: i64,",
    ] {
        assert!(text.contains(line), "{line:?} not in\n{text}");
    }

    let x = PhoenixTable::read(&catalog, None, "R_CX").await.unwrap();
    let key: Vec<_> = x
        .key_columns()
        .map(|c| (c.name.as_str(), c.ty, c.desc, c.nullable))
        .collect();
    assert_eq!(
        key,
        [
            ("A", PhoenixType::Varchar { max_chars: Some(8) }, true, true),
            (
                "B",
                PhoenixType::Decimal {
                    precision: Some(10),
                    scale: Some(2)
                },
                false,
                false
            ),
            ("C", PhoenixType::Char { len: 3 }, true, false),
            ("D", PhoenixType::SmallInt, true, false),
            ("E", PhoenixType::Varchar { max_chars: None }, false, true),
        ]
    );
    assert!(x
        .key_struct()
        .contains("    #[phoenix(decimal(10,2))]\n    pub b: rust_decimal::Decimal,"));
    assert!(x
        .key_struct()
        .contains("    #[desc]\n    pub a: Option<String>,"));

    // Tables a write from outside Phoenix would leave otherwise.
    let i = PhoenixTable::read(&catalog, None, "R_CI").await.unwrap();
    assert_eq!(i.encoding, QualifierEncoding::None);
    assert_eq!(i.indexes, ["R_CI_V1"]);
    assert!(i.write_refusal().unwrap().contains("indexes (R_CI_V1)"));
    assert_eq!(
        i.value_columns()
            .find(|c| c.name == "V1")
            .unwrap()
            .qualifier
            .as_deref(),
        Some(&b"V1"[..])
    );
    let v = PhoenixTable::read(&catalog, None, "R_CV").await.unwrap();
    assert_eq!(v.kind, TableKind::View);
    assert!(v.write_refusal().unwrap().contains("a view with a WHERE"));
    let t = PhoenixTable::read(&catalog, None, "R_CT").await.unwrap();
    assert!(t.immutable);
    assert_eq!(t.storage, StorageScheme::SingleCellArrayWithOffsets);
    assert!(t.write_refusal().unwrap().contains("ROW_TIMESTAMP"));
    let missing = PhoenixTable::read(&catalog, None, "R_NOPE")
        .await
        .unwrap_err();
    assert_eq!(missing.to_string(), "SYSTEM.CATALOG has no table R_NOPE");
}
