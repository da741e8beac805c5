//! Phoenix's codecs and keys: Phoenix's own bytes (observed from 5.2.1,
//! `testing/phoenix/notes/types.md`), then the properties every codec
//! keeps: roundtrip, order where Phoenix promises it, one form a value
//! (canonical decode), and no panic on any bytes.

use super::*;
use crate::reader::KeyReader;
use crate::writer::KeyWriter;
use proptest::prelude::*;

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A value's ascending-form bytes as `ty`, or why not.
fn bytes<V: PhoenixValue>(v: &V, ty: PhoenixType) -> Result<Vec<u8>, crate::EncodeErrorKind> {
    v.check(&ty)?;
    let mut out = Vec::new();
    v.put_phoenix(&ty, &mut |b| out.extend_from_slice(b));
    assert_eq!(out.len(), v.phoenix_len(&ty));
    Ok(out)
}

/// One column a test key holds: its declaration and how to write and
/// read a value of it.
type Row = (Option<String>, i32, Option<String>);

/// `(A VARCHAR, B INTEGER NOT NULL, C VARCHAR)` with A and C in the given
/// orders: a key with a NULL-able column on each side of a fixed one.
fn columns(a_desc: bool, c_desc: bool) -> [PhoenixColumn; 3] {
    let varchar = PhoenixType::Varchar { max_chars: None };
    [
        PhoenixColumn {
            ty: varchar,
            desc: a_desc,
            last: false,
            max_len: None,
        },
        PhoenixColumn {
            ty: PhoenixType::Integer,
            desc: false,
            last: false,
            max_len: None,
        },
        PhoenixColumn {
            ty: varchar,
            desc: c_desc,
            last: true,
            max_len: None,
        },
    ]
}

fn encode_row(row: &Row, cols: &[PhoenixColumn; 3]) -> Result<Vec<u8>, crate::EncodeError> {
    let mut out = vec![0u8; 256];
    let mut w = KeyWriter::new(&mut out, "Row");
    let mut len = PhoenixKeyLen::new(0);
    put_column(&mut w, &row.0, &cols[0], &mut len)?;
    put_column(&mut w, &row.1, &cols[1], &mut len)?;
    put_column(&mut w, &row.2, &cols[2], &mut len)?;
    finish_key(&mut w, &len)?;
    let n = w.finish();
    assert_eq!(n, len.len(), "the counted length is the written one");
    out.truncate(n);
    Ok(out)
}

fn decode_row(key: &[u8], cols: &[PhoenixColumn; 3]) -> Result<Row, crate::DecodeError> {
    let mut r = KeyReader::new(key, "Row");
    let mut end = PhoenixKeyLen::new(0);
    let at = |r: &KeyReader<'_>, e| r.error(e);
    let a = take_column(&mut r, &cols[0], &mut end)?;
    let a = column_value::<Option<String>>(a, &cols[0]).map_err(|e| at(&r, e))?;
    let b = take_column(&mut r, &cols[1], &mut end)?;
    let b = column_value::<i32>(b, &cols[1]).map_err(|e| at(&r, e))?;
    let c = take_column(&mut r, &cols[2], &mut end)?;
    let c = column_value::<Option<String>>(c, &cols[2]).map_err(|e| at(&r, e))?;
    finish_read(&r, &end)?;
    Ok((a, b, c))
}

#[test]
fn keys_are_phoenixs() {
    // Each observed from Phoenix 5.2.1 (notes/types.md §1.3).
    let s = |v: &str| Some(v.to_owned());
    let cases: [(bool, bool, Row, &str); 6] = [
        (false, true, (s("a"), 1, s("c")), "61008000000 19cff"),
        (false, true, (s("a"), 1, None), "6100800000 01"),
        (false, false, (None, 1, s("c")), "00800000 0163"),
        (true, false, (s("a"), 1, s("c")), "9eff80000001 63"),
        (true, true, (None, 7, None), "0080000007"),
        (
            false,
            false,
            (s("web-01"), 7, None),
            "7765622d303100 80000007",
        ),
    ];
    for (a_desc, c_desc, row, want) in cases {
        let cols = columns(a_desc, c_desc);
        let want: String = want.split_whitespace().collect();
        let key = encode_row(&row, &cols).unwrap();
        assert_eq!(hex(&key), want, "{row:?}");
        assert_eq!(decode_row(&key, &cols).unwrap(), row);
    }
}

#[test]
fn what_phoenix_refuses_is_refused() {
    let cols = columns(false, false);
    let empty = (Some(String::new()), 1, None);
    assert!(encode_row(&empty, &cols).is_err(), "'' is NULL to Phoenix");
    let nul = (Some("a\0b".to_owned()), 1, None);
    assert!(
        encode_row(&nul, &cols).is_err(),
        "U+0000 ends a VARCHAR key"
    );
    let col = PhoenixColumn {
        ty: PhoenixType::Boolean,
        desc: true,
        last: true,
        max_len: None,
    };
    let mut out = [0u8; 4];
    let mut w = KeyWriter::new(&mut out, "K");
    assert!(put_column(&mut w, &true, &col, &mut PhoenixKeyLen::new(0)).is_err());
    // The last column reads to the key's end (U+0000 and all)...
    let last_nul = [0x61, 0x00, 0x80, 0, 0, 1, 0x63, 0x00];
    assert_eq!(
        decode_row(&last_nul, &cols).unwrap().2.as_deref(),
        Some("c\0")
    );
    assert!(decode_row(&[0x61, 0x00, 0x80, 0, 0, 1], &cols).is_ok());
    // ...but a fixed column cut short, or a DESC last column without its
    // FF, is not a key Phoenix writes.
    assert!(decode_row(&[0x61, 0x00, 0x80, 0], &cols).is_err());
    let desc = columns(false, true);
    assert!(decode_row(&[0x61, 0x00, 0x80, 0, 0, 1, 0x9c, 0xff], &desc).is_ok());
    // A DESC last VARCHAR's U+0000 would be an FF inside the value,
    // sorting it out of order: refused.
    let desc_nul = (Some("a".to_owned()), 1, Some("c\0".to_owned()));
    assert!(encode_row(&desc_nul, &desc).is_err());
    let e = decode_row(&[0x61, 0x00, 0x80, 0, 0, 1, 0x9c], &desc).unwrap_err();
    assert!(e.offset() <= 7, "{e}");
}

/// Every value of `ty` from `values` reads back, sorts as Phoenix
/// promises (`ordered`), and any bytes that read write themselves back.
fn codec_properties<V>(ty: PhoenixType, a: &V, b: &V, junk: &[u8], ordered: bool)
where
    V: PhoenixValue + PartialOrd + core::fmt::Debug,
{
    let (Ok(ka), Ok(kb)) = (bytes(a, ty), bytes(b, ty)) else {
        return;
    };
    let back_a = V::from_phoenix(Some(&ka), &ty).unwrap();
    // NaN reads back as NaN: neither compares with itself.
    let nan = |v: &V| v.partial_cmp(v).is_none();
    assert!(
        back_a == *a || (nan(&back_a) && nan(a)),
        "{a:?} -> {back_a:?}"
    );
    if ordered && a.partial_cmp(b).is_some() {
        assert_eq!(ka.cmp(&kb), a.partial_cmp(b).unwrap(), "{a:?} vs {b:?}");
    }
    if let Ok(v) = V::from_phoenix(Some(junk), &ty) {
        assert_eq!(bytes(&v, ty).unwrap(), junk, "{junk:02x?} -> {v:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn integers(a: i64, b: i64, x: i32, y: i32, junk in proptest::collection::vec(any::<u8>(), 0..10)) {
        codec_properties(PhoenixType::BigInt, &a, &b, &junk, true);
        codec_properties(PhoenixType::Integer, &x, &y, &junk, true);
        codec_properties(PhoenixType::UnsignedLong, &(a as u64 >> 1), &(b as u64 >> 1), &junk, true);
        codec_properties(PhoenixType::UnsignedInt, &(x as u32 >> 1), &(y as u32 >> 1), &junk, true);
        prop_assert!(bytes(&u32::MAX, PhoenixType::UnsignedInt).is_err());
    }

    #[test]
    fn floats(a: f64, b: f64, x: f32, y: f32, junk in proptest::collection::vec(any::<u8>(), 0..10)) {
        // Phoenix's order is total: -0.0 below 0.0, NaN above +inf.
        let total = |v: f64| if v.is_nan() { (2, 0.0) } else { (1, v) };
        let (ka, kb) = (double_bytes(a), double_bytes(b));
        if !(a.is_nan() || b.is_nan() || a == 0.0 && b == 0.0) {
            prop_assert_eq!(ka.cmp(&kb), a.partial_cmp(&b).unwrap());
        }
        if a.is_nan() && !b.is_nan() {
            prop_assert!(ka > kb, "{:?}", total(a));
        }
        codec_properties(PhoenixType::Double, &a, &b, &junk, false);
        codec_properties(PhoenixType::Float, &x, &y, &junk, false);
        codec_properties(PhoenixType::UnsignedDouble, &a.abs(), &b.abs(), &junk, false);
    }

    #[test]
    fn texts(a in "[^\u{0}]{1,12}", b in "[^\u{0}]{1,12}", junk in proptest::collection::vec(any::<u8>(), 0..12)) {
        let varchar = PhoenixType::Varchar { max_chars: None };
        codec_properties(varchar, &a, &b, &junk, true);
        let ascii = |s: &str| s.chars().filter(char::is_ascii_alphanumeric).collect::<String>();
        codec_properties(PhoenixType::Char { len: 12 }, &ascii(&a), &ascii(&b), &junk, false);
    }

    #[test]
    fn timestamps(a: i64, b: i64, na in 0u32..1_000_000, nb in 0u32..1_000_000, junk in proptest::collection::vec(any::<u8>(), 0..14)) {
        let (ta, tb) = (PhoenixTimestamp::new(a, na).unwrap(), PhoenixTimestamp::new(b, nb).unwrap());
        codec_properties(PhoenixType::Timestamp, &ta, &tb, &junk, true);
    }

    #[test]
    fn decimals(ma: u64, sa in -20i32..20, na: bool, mb: u64, sb in -20i32..20, nb: bool, junk in proptest::collection::vec(any::<u8>(), 0..12)) {
        let (Some(a), Some(b)) = (
            DecimalDigits::from_scaled(na, u128::from(ma), sa),
            DecimalDigits::from_scaled(nb, u128::from(mb), sb),
        ) else { return Ok(()) };
        let (ka, kb) = (decimal_bytes(&a).unwrap(), decimal_bytes(&b).unwrap());
        prop_assert_eq!(decimal_from(ka.as_slice()).unwrap(), a);
        // Order: as the numbers, compared exactly (sign, then magnitude:
        // more digits before the point, then the digits).
        let magnitude = |d: &DecimalDigits| {
            let mut digits = d.digits().to_vec();
            digits.resize(40, 0);
            (d.digits().is_empty(), d.point, digits)
        };
        let cmp = |x: &DecimalDigits, y: &DecimalDigits| {
            use core::cmp::Ordering::*;
            let sign = |d: &DecimalDigits| if d.digits().is_empty() { 1 } else if d.negative { 0 } else { 2 };
            match sign(x).cmp(&sign(y)) {
                Equal if sign(x) == 1 => Equal,
                Equal => {
                    let (mx, my) = (magnitude(x), magnitude(y));
                    let o = (mx.1, mx.2).cmp(&(my.1, my.2));
                    if x.negative { o.reverse() } else { o }
                }
                o => o,
            }
        };
        prop_assert_eq!(ka.as_slice().cmp(kb.as_slice()), cmp(&a, &b), "{:?} {:?}", a, b);
        if let Ok(d) = decimal_from(&junk) {
            let again = decimal_bytes(&d).unwrap();
            prop_assert_eq!(again.as_slice(), &junk[..]);
        }
    }

    #[test]
    fn keys_roundtrip_in_order_and_only_one_way(
        a in proptest::option::of("[a-c]{1,3}"), b: i32, c in proptest::option::of("[a-c\u{e9}]{1,3}"),
        a2 in proptest::option::of("[a-c]{1,3}"), b2: i32, c2 in proptest::option::of("[a-c]{1,3}"),
        a_desc: bool, c_desc: bool,
        junk in proptest::collection::vec(prop_oneof![Just(0u8), Just(0xFF), Just(0x61), Just(0x80), any::<u8>()], 0..14),
    ) {
        let cols = columns(a_desc, c_desc);
        let (r1, r2) = ((a, b, c), (a2, b2, c2));
        let (k1, k2) = (encode_row(&r1, &cols).unwrap(), encode_row(&r2, &cols).unwrap());
        prop_assert_eq!(&decode_row(&k1, &cols).unwrap(), &r1);
        // Phoenix's order: NULL first, then each column as declared.
        let order = |x: &Option<String>, y: &Option<String>, desc: bool| {
            let o = x.cmp(y);
            if desc && x.is_some() && y.is_some() { o.reverse() } else { o }
        };
        let want = order(&r1.0, &r2.0, a_desc)
            .then(r1.1.cmp(&r2.1))
            .then(order(&r1.2, &r2.2, c_desc));
        prop_assert_eq!(k1.cmp(&k2), want, "{:?} vs {:?}", r1, r2);
        if let Ok(row) = decode_row(&junk, &cols) {
            prop_assert_eq!(encode_row(&row, &cols).unwrap(), junk);
        }
    }
}
