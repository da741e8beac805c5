//! `#[derive(Record)]` round trips: record -> row -> record for every cell
//! codec, with adversarial values (empty text and bytes, NaN payloads and
//! -0.0 kept as their bits, integer extremes, dates at their types' ends,
//! `None` as an absent cell, JSON and a custom codec); any bytes in any
//! cell give a record or an error naming the cell, never a panic.

use proptest::prelude::*;
use rowkey::store::cell::CellCodec;
use rowkey::store::{BoxError, Cell, Record, RecordError, Row};
use rowkey::{Record, RowKey};
use serde::{Deserialize, Serialize};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct AllKey {
    #[max_len(16)]
    id: Vec<u8>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Meta {
    tags: Vec<String>,
    score: Option<i32>,
}

/// Celsius as decimal text, as a legacy writer stored it.
struct TenthsText;
impl CellCodec<i64> for TenthsText {
    fn encode(v: &i64) -> Vec<u8> {
        v.to_string().into_bytes()
    }
    fn decode(b: &[u8]) -> Result<i64, BoxError> {
        Ok(std::str::from_utf8(b)?.parse()?)
    }
}

#[derive(Record, Debug, Clone, PartialEq)]
#[record(key = AllKey, family = "d")]
struct All {
    id: Vec<u8>,
    a: u8,
    b: i8,
    c: u16,
    d: i16,
    e: u32,
    f: i32,
    g: u64,
    h: i64,
    i: u128,
    j: i128,
    k: f32,
    l: f64,
    m: bool,
    n: String,
    o: char,
    p: Vec<u8>,
    q: [u8; 3],
    r: Option<String>,
    #[cell(family = "e", qualifier = "s\u{0}\u{7f}")]
    s: Option<u64>,
    t: chrono::NaiveDate,
    u: chrono::DateTime<chrono::Utc>,
    v: uuid::Uuid,
    w: rust_decimal::Decimal,
    x: time::OffsetDateTime,
    y: jiff::Timestamp,
    #[cell(json)]
    z: Meta,
    #[cell(with = TenthsText)]
    tenths: i64,
    #[cell(skip)]
    cache: Option<u32>,
}

/// Floats compare by bits: NaN payloads and -0.0 must come back as they were.
fn same(a: &All, b: &All) -> bool {
    let mut a2 = a.clone();
    let mut b2 = b.clone();
    let bits = (a.k.to_bits(), a.l.to_bits()) == (b.k.to_bits(), b.l.to_bits());
    a2.k = 0.0;
    a2.l = 0.0;
    b2.k = 0.0;
    b2.l = 0.0;
    bits && a2 == b2
}

fn edge<T: Clone + std::fmt::Debug + 'static>(
    edges: Vec<T>,
    any: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<T> {
    prop_oneof![1 => proptest::sample::select(edges), 2 => any].boxed()
}

fn chrono_date() -> impl Strategy<Value = chrono::NaiveDate> {
    edge(
        vec![chrono::NaiveDate::MIN, chrono::NaiveDate::MAX],
        (-3_000_000i32..3_000_000)
            .prop_map(|d| chrono::NaiveDate::from_num_days_from_ce_opt(719_163 + d).unwrap()),
    )
}

fn chrono_time() -> impl Strategy<Value = chrono::DateTime<chrono::Utc>> {
    edge(
        vec![
            chrono::DateTime::<chrono::Utc>::MIN_UTC,
            chrono::DateTime::<chrono::Utc>::MAX_UTC,
            // A leap second.
            chrono::DateTime::from_timestamp(1_483_228_799, 1_500_000_000).unwrap(),
        ],
        (-200_000_000_000i64..200_000_000_000, 0u32..1_000_000_000)
            .prop_map(|(s, n)| chrono::DateTime::from_timestamp(s, n).unwrap()),
    )
}

fn all() -> impl Strategy<Value = All> {
    let ints = (
        any::<u8>(),
        any::<i8>(),
        any::<u16>(),
        any::<i16>(),
        edge(vec![0, u32::MAX], any::<u32>()),
        edge(vec![i32::MIN, -1, 0, i32::MAX], any::<i32>()),
        edge(vec![0, u64::MAX], any::<u64>()),
        edge(vec![i64::MIN, -1, i64::MAX], any::<i64>()),
        any::<u128>(),
        edge(vec![i128::MIN, i128::MAX], any::<i128>()),
    );
    let floats = (
        edge(
            vec![
                f32::NAN,
                -0.0,
                f32::INFINITY,
                f32::MIN_POSITIVE,
                f32::from_bits(0x7FA0_0001),
            ],
            any::<u32>().prop_map(f32::from_bits),
        ),
        edge(
            vec![
                f64::NAN,
                -0.0,
                f64::NEG_INFINITY,
                f64::MAX,
                f64::from_bits(0xFFF0_0000_0000_0001),
            ],
            any::<u64>().prop_map(f64::from_bits),
        ),
    );
    let text = (
        any::<bool>(),
        edge(
            vec![String::new(), "\u{0}".into(), "张三😀".into()],
            any::<String>(),
        ),
        any::<char>(),
        proptest::collection::vec(any::<u8>(), 0..8),
        any::<[u8; 3]>(),
        proptest::option::of(edge(vec![String::new()], any::<String>())),
        proptest::option::of(any::<u64>()),
    );
    let dates = (
        chrono_date(),
        chrono_time(),
        any::<u128>().prop_map(uuid::Uuid::from_u128),
        (
            any::<u32>(),
            any::<u32>(),
            any::<u32>(),
            any::<bool>(),
            0u32..=28,
        )
            .prop_map(|(l, m, h, n, s)| rust_decimal::Decimal::from_parts(l, m, h, n, s)),
        (-377_705_116_800i64..253_402_300_799, 0u32..1_000_000_000).prop_map(|(s, n)| {
            time::OffsetDateTime::from_unix_timestamp(s)
                .unwrap()
                .replace_nanosecond(n)
                .unwrap()
        }),
        (-377_705_116_800i64..253_402_300_799, 0i32..1_000_000_000)
            .prop_map(|(s, n)| jiff::Timestamp::new(s, n).unwrap()),
    );
    let rest = (
        proptest::collection::vec(".{0,4}", 0..3),
        proptest::option::of(any::<i32>()),
        any::<i64>(),
        proptest::collection::vec(any::<u8>(), 0..16),
    );
    (ints, floats, text, dates, rest).prop_map(
        |(
            (a, b, c, d, e, f, g, h, i, j),
            (k, l),
            (m, n, o, p, q, r, s),
            (t, u, v, w, x, y),
            (tags, score, tenths, id),
        )| All {
            id,
            a,
            b,
            c,
            d,
            e,
            f,
            g,
            h,
            i,
            j,
            k,
            l,
            m,
            n,
            o,
            p,
            q,
            r,
            s,
            t,
            u,
            v,
            w,
            x,
            y,
            z: Meta { tags, score },
            tenths,
            cache: None,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn record_row_record(rec in all()) {
        let row = Row::new(rec.key().to_vec().unwrap(), rec.cells());
        let back = All::from_row(&row).unwrap();
        prop_assert!(same(&back, &rec), "{:?}\n{:?}", back, rec);
        // None is an absent cell, Some a present one.
        prop_assert_eq!(row.value("d", "r").is_some(), rec.r.is_some());
        prop_assert_eq!(row.value("e", b"s\x00\x7f").is_some(), rec.s.is_some());
        // The row holds only the record's columns.
        let cols = All::columns().unwrap();
        prop_assert!(row.cells.iter().all(|c| cols.contains(&c.family, &c.qualifier)));
    }

    /// Any bytes in one cell: a record, or an error naming that cell and
    /// the row; never a panic.
    #[test]
    fn any_cell_bytes_read_or_name_the_cell(
        rec in all(),
        pick in 0usize..40,
        junk in proptest::collection::vec(any::<u8>(), 0..20),
        drop_it: bool,
    ) {
        let mut cells = rec.cells();
        let i = pick % cells.len();
        let target = cells[i].clone();
        if drop_it {
            cells.remove(i);
        } else {
            cells[i].value = junk;
        }
        let row = Row::new(rec.key().to_vec().unwrap(), cells);
        if let Err(e) = All::from_row(&row) {
            let RecordError::Cell { record, family, qualifier, key, .. } = e else {
                panic!("{e}")
            };
            prop_assert_eq!(record, "All");
            prop_assert_eq!((family, qualifier), (target.family, target.qualifier));
            prop_assert_eq!(key, row.key);
        }
    }
}

#[test]
fn missing_required_cell_and_bad_key() {
    let rec_row = Row::new(
        AllKey { id: vec![1] }.to_vec().unwrap(),
        vec![Cell::new("d", "a", [1])],
    );
    let e = All::from_row(&rec_row).unwrap_err().to_string();
    assert!(e.starts_with("cannot read All from row "), "{e}");
    assert!(e.contains(": cell d:b: the row has no such cell"), "{e}");
    let bad_key = Row::new(vec![0xFF; 40], vec![]);
    let e = All::from_row(&bad_key).unwrap_err().to_string();
    assert!(e.contains("the key does not decode"), "{e}");
}
