//! `#[derive(RowKey)] #[rowkey(phoenix)]`: a Phoenix table's primary key
//! as a struct, its bytes Phoenix's (the rules themselves are checked
//! against Phoenix in `phoenix_codecs.rs` and, on a live Phoenix, in
//! `rowkey-hbase/tests/phoenix/`).

use proptest::prelude::*;
use rowkey::codec::phoenix::{
    finish_key, put_column, PhoenixColumn, PhoenixKeyLen, PhoenixTimestamp, PhoenixType,
};
use rowkey::{KeyWriter, RowKey};
use rowkey_fixtures::layouts::PhoenixMetric;
use rust_decimal::Decimal;

#[test]
fn the_row_phoenix_wrote() {
    let m = PhoenixMetric {
        host: "web-01".into(),
        metric: 7,
        at: 1_700_000_000_000,
    };
    let key = m.to_vec().unwrap();
    let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hex, "047765622d303100800000077ffffe74301a97ff");
    assert_eq!(PhoenixMetric::decode(&key).unwrap(), m);
    assert_eq!(m.encoded_len(), key.len());
    assert!(
        PhoenixMetric::layout()
            .explain()
            .contains("Phoenix's VARCHAR, then 00"),
        "{}",
        PhoenixMetric::layout().explain()
    );
}

/// NULL-able columns on each side of fixed ones, DESC ones, and every
/// kind of value.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct Mixed {
    #[desc]
    #[phoenix(varchar(8))]
    a: Option<String>,
    #[phoenix(decimal(10, 2))]
    b: Decimal,
    #[desc]
    #[phoenix(char(3))]
    c: String,
    #[desc]
    d: i16,
    #[phoenix(unsigned_int)]
    u: u32,
    t: PhoenixTimestamp,
    #[max_len(40)]
    e: Option<String>,
}

fn columns() -> Vec<PhoenixColumn> {
    let col = |ty, desc, last| PhoenixColumn {
        ty,
        desc,
        last,
        max_len: None,
    };
    vec![
        col(PhoenixType::Varchar { max_chars: Some(8) }, true, false),
        col(
            PhoenixType::Decimal {
                precision: Some(10),
                scale: Some(2),
            },
            false,
            false,
        ),
        col(PhoenixType::Char { len: 3 }, true, false),
        col(PhoenixType::SmallInt, true, false),
        col(PhoenixType::UnsignedInt, false, false),
        col(PhoenixType::Timestamp, false, false),
        col(PhoenixType::Varchar { max_chars: None }, false, true),
    ]
}

/// The key as the column functions write it, by hand.
fn by_hand(m: &Mixed) -> Vec<u8> {
    let cols = columns();
    let mut out = vec![0u8; 256];
    let mut w = KeyWriter::new(&mut out, "Mixed");
    let mut len = PhoenixKeyLen::new(0);
    put_column(&mut w, &m.a, &cols[0], &mut len).unwrap();
    put_column(&mut w, &m.b, &cols[1], &mut len).unwrap();
    put_column(&mut w, &m.c, &cols[2], &mut len).unwrap();
    put_column(&mut w, &m.d, &cols[3], &mut len).unwrap();
    put_column(&mut w, &m.u, &cols[4], &mut len).unwrap();
    put_column(&mut w, &m.t, &cols[5], &mut len).unwrap();
    put_column(&mut w, &m.e, &cols[6], &mut len).unwrap();
    finish_key(&mut w, &len).unwrap();
    let n = w.finish();
    out.truncate(n);
    out
}

fn mixed() -> impl Strategy<Value = Mixed> {
    (
        proptest::option::of("[a-zé]{1,8}"),
        (-99_999_999i64..99_999_999, 0u32..3),
        "[A-Za-z0-9]{1,3}",
        any::<i16>(),
        0u32..=i32::MAX as u32,
        (any::<i64>(), 0u32..1_000_000),
        proptest::option::of("[a-z ]{0,6}[a-z]"),
    )
        .prop_map(|(a, (m, s), c, d, u, (ms, ns), e)| Mixed {
            a,
            b: Decimal::new(m, s),
            c,
            d,
            u,
            t: PhoenixTimestamp::new(ms, ns).unwrap(),
            e,
        })
}

proptest! {
    #[test]
    fn derived_keys_are_the_columns_keys(m in mixed(), n in mixed()) {
        let key = m.to_vec().unwrap();
        prop_assert_eq!(&key, &by_hand(&m));
        prop_assert_eq!(m.encoded_len(), key.len());
        // A buffer of the length it states is enough: nothing written is
        // dropped after.
        let mut exact = vec![0u8; m.encoded_len()];
        prop_assert_eq!(m.encode_into(&mut exact).unwrap(), key.len());
        prop_assert_eq!(&Mixed::decode(&key).unwrap(), &m);
        // The interpreter reads and writes the same bytes by the layout.
        let decoded = Mixed::layout().decode_key(&key).unwrap();
        let values: Vec<_> = decoded.fields.iter().map(|f| f.value.clone()).collect();
        prop_assert_eq!(Mixed::layout().encode_key(&values, None).unwrap(), key.clone());
        // Distinct rows, distinct keys.
        if m != n {
            prop_assert_ne!(key, n.to_vec().unwrap());
        }
    }

    #[test]
    fn any_bytes_decode_to_their_own_key_or_fail(bytes in proptest::collection::vec(any::<u8>(), 0..60)) {
        if let Ok(m) = Mixed::decode(&bytes) {
            prop_assert_eq!(m.to_vec().unwrap(), bytes.clone());
        }
        let _ = Mixed::layout().decode_key(&bytes);
    }
}

#[test]
fn what_phoenix_refuses_is_refused_when_encoding() {
    let ok = Mixed {
        a: None,
        b: Decimal::new(125, 2),
        c: "ab".into(),
        d: 1,
        u: 1,
        t: PhoenixTimestamp::from_millis(0),
        e: None,
    };
    assert!(ok.to_vec().is_ok());
    let e = Mixed {
        b: Decimal::new(1239, 3),
        ..ok.clone()
    }
    .to_vec()
    .unwrap_err();
    assert_eq!(e.field(), "b", "{e}");
    let e = Mixed {
        a: Some("123456789".into()),
        ..ok.clone()
    }
    .to_vec()
    .unwrap_err();
    assert!(e.to_string().contains("9 characters"), "{e}");
    let e = Mixed {
        c: "ab ".into(),
        ..ok.clone()
    }
    .to_vec()
    .unwrap_err();
    assert_eq!(e.field(), "c");
    let e = Mixed {
        u: u32::MAX,
        ..ok.clone()
    }
    .to_vec()
    .unwrap_err();
    assert_eq!(e.field(), "u");
    let e = Mixed {
        e: Some(String::new()),
        ..ok
    }
    .to_vec()
    .unwrap_err();
    assert!(e.to_string().contains("NULL"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The layout's prefix ranges (the CLI's scan) against brute force
    /// over a sorted map: exactly the keys whose first fields hold the
    /// values, NULLs and all.
    #[test]
    fn prefix_ranges_hold_exactly_the_rows(rows in proptest::collection::vec(mixed(), 1..40), pick: usize, k in 0usize..7) {
        use std::collections::BTreeMap;
        let layout = Mixed::layout();
        let keys: BTreeMap<Vec<u8>, Mixed> = rows.iter().map(|m| (m.to_vec().unwrap(), m.clone())).collect();
        let target = &rows[pick % rows.len()];
        let decoded = layout.decode_key(&target.to_vec().unwrap()).unwrap();
        let values: Vec<_> = decoded.fields.iter().take(k).map(|f| f.value.clone()).collect();
        let ranges = layout.prefix_ranges(&values).unwrap();
        let found: Vec<&Vec<u8>> = keys
            .keys()
            .filter(|key| ranges.iter().any(|(a, b)| key.as_slice() >= a.as_slice() && b.as_ref().is_none_or(|b| key.as_slice() < b.as_slice())))
            .collect();
        let want: Vec<&Vec<u8>> = keys
            .keys()
            .filter(|key| {
                let d = layout.decode_key(key).unwrap();
                d.fields.iter().take(k).map(|f| &f.value).eq(values.iter())
            })
            .collect();
        prop_assert_eq!(found, want);
    }
}

/// One NULL-able column: a key of it alone can be all NULLs.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct OnlyNullable {
    #[max_len(8)]
    a: Option<String>,
}

#[test]
fn a_key_of_only_nulls_is_refused() {
    let e = OnlyNullable { a: None }.to_vec().unwrap_err();
    assert!(e.to_string().contains("every key column is NULL"), "{e}");
    assert!(OnlyNullable {
        a: Some("x".into())
    }
    .to_vec()
    .is_ok());
    // The interpreter refuses it too, and a NULL in a field that is not
    // an Option.
    use rowkey::layout::dynamic::Value;
    assert!(OnlyNullable::layout()
        .encode_key(&[Value::Option(None)], None)
        .is_err());
    let values = [
        Value::Option(None),
        Value::Decimal("1".into()),
        Value::Option(None),
        Value::Int(1),
        Value::UInt(1),
        Value::Int(0),
        Value::Option(None),
    ];
    assert!(
        Mixed::layout().encode_key(&values, None).is_err(),
        "c is not an Option"
    );
}

#[test]
fn a_phoenix_layout_goes_through_json_whole() {
    // What the CLI reads: the layout as JSON, back, reading the key.
    for layout in [PhoenixMetric::layout(), Mixed::layout()] {
        let json = serde_json::to_string(layout).unwrap();
        let back = rowkey::Layout::from_json(&json).unwrap();
        assert_eq!(back.fingerprint(), layout.fingerprint());
        assert!(back.is_phoenix());
    }
    let m = PhoenixMetric {
        host: "web-01".into(),
        metric: 7,
        at: 1_700_000_000_000,
    };
    let json = serde_json::to_string(PhoenixMetric::layout()).unwrap();
    let back = rowkey::Layout::from_json(&json).unwrap();
    let decoded = back.decode_key(&m.to_vec().unwrap()).unwrap();
    let shown: Vec<String> = decoded.fields.iter().map(|f| f.value.to_string()).collect();
    assert_eq!(shown, ["web-01", "7", "1700000000000"]);
    // A Phoenix layout whose salt is not Phoenix's is refused.
    assert!(json.contains("\"hash\":\"Phoenix\""), "{json}");
    let bad = json.replace("\"hash\":\"Phoenix\"", "\"hash\":\"Md5\"");
    let e = rowkey::Layout::from_json(&bad).unwrap_err().to_string();
    assert!(e.contains("Phoenix's"), "{e}");
}
