//! Phoenix's types, byte for byte, against Apache Phoenix 5.2.1's own
//! encoders in the JVM (`testing/phoenix`'s `PhoenixCodec`, which calls
//! `PDataType.toBytes(value, SortOrder)` and `pad`, then `toObject`):
//! thousands of random values of every type rowkey writes, with their
//! edges (each integer type's MIN, MAX, 0 and -1; both zeros, the
//! infinities, NaN with any payload and subnormals; decimals of 1 to 38
//! digits at scales -20 to 38; timestamps before and after the epoch;
//! strings of any Unicode), in both sort orders where Phoenix keys the
//! type: rowkey's bytes are Phoenix's, and what Phoenix reads back from
//! its bytes is what rowkey reads from them.
//!
//! Java and Maven are installed on every machine this project builds on;
//! without them this test fails, loudly, rather than skip.

use rowkey::codec::phoenix::{
    decimal_bytes, decimal_from, DecimalDigits, PhoenixTimestamp, PhoenixType, PhoenixValue,
};
use rowkey_fixtures::layouts::Rng;

fn hex(b: &[u8]) -> String {
    if b.is_empty() {
        return "-".into();
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    if s == "-" {
        return Vec::new();
    }
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// How a case reads ascending-form bytes into the answer's value form.
type ReadBack = Box<dyn Fn(&[u8]) -> String>;

/// One value to check: the line asked, rowkey's bytes (ascending), and how
/// to read bytes back into the answer's value form.
struct Case {
    line: String,
    ours: Vec<u8>,
    desc: bool,
    read: ReadBack,
}

fn case<V: PhoenixValue + 'static>(
    v: V,
    ty: PhoenixType,
    desc: bool,
    len: Option<u32>,
    text: String,
    show: fn(&V) -> String,
) -> Case {
    v.check(&ty)
        .unwrap_or_else(|e| panic!("{ty} {text}: rowkey refuses a value Phoenix takes: {e:?}"));
    let mut ours = Vec::new();
    v.put_phoenix(&ty, &mut |b| ours.extend_from_slice(b));
    let order = if desc { "desc" } else { "asc" };
    let len = len.map_or("-".to_owned(), |n| n.to_string());
    Case {
        line: format!("{} {order} {len} {text}", ty.name()),
        ours,
        desc,
        read: Box::new(move |asc| match V::from_phoenix(Some(asc), &ty) {
            Ok(v) => show(&v),
            Err(e) => format!("rowkey refuses: {e:?}"),
        }),
    }
}

fn ints(rng: &mut Rng, cases: &mut Vec<Case>) {
    for i in 0..600u64 {
        let desc = i % 2 == 1;
        let r = rng.next_u64();
        let pick = |edges: &[i64], r: u64| -> i64 {
            if r.is_multiple_of(4) {
                edges[(r / 4 % edges.len() as u64) as usize]
            } else {
                r as i64 >> (r % 60)
            }
        };
        let v = pick(&[i64::MIN, i64::MAX, 0, -1, 1], r);
        cases.push(case(
            v,
            PhoenixType::BigInt,
            desc,
            None,
            v.to_string(),
            |v| v.to_string(),
        ));
        let v = pick(&[i32::MIN.into(), i32::MAX.into(), 0, -1], r) as i32;
        cases.push(case(
            v,
            PhoenixType::Integer,
            desc,
            None,
            v.to_string(),
            |v| v.to_string(),
        ));
        let v = v as i16;
        cases.push(case(
            v,
            PhoenixType::SmallInt,
            desc,
            None,
            v.to_string(),
            |v| v.to_string(),
        ));
        let v = v as i8;
        cases.push(case(
            v,
            PhoenixType::TinyInt,
            desc,
            None,
            v.to_string(),
            |v| v.to_string(),
        ));
        let u = (r >> 1) >> (r % 60);
        cases.push(case(
            u,
            PhoenixType::UnsignedLong,
            desc,
            None,
            u.to_string(),
            |v| v.to_string(),
        ));
        let u = (r >> 33) as u32;
        cases.push(case(
            u,
            PhoenixType::UnsignedInt,
            desc,
            None,
            u.to_string(),
            |v| v.to_string(),
        ));
        let u = (r >> 49) as u16;
        cases.push(case(
            u,
            PhoenixType::UnsignedSmallInt,
            desc,
            None,
            u.to_string(),
            |v| v.to_string(),
        ));
        let u = (r >> 57) as u8;
        cases.push(case(
            u,
            PhoenixType::UnsignedTinyInt,
            desc,
            None,
            u.to_string(),
            |v| v.to_string(),
        ));
        let ms = r as i64 >> (r % 64);
        cases.push(case(
            ms,
            PhoenixType::Date,
            desc,
            None,
            ms.to_string(),
            |v| v.to_string(),
        ));
        cases.push(case(
            ms,
            PhoenixType::Time,
            desc,
            None,
            ms.to_string(),
            |v| v.to_string(),
        ));
        let ums = (r >> 1) >> (r % 63);
        cases.push(case(
            ums,
            PhoenixType::UnsignedDate,
            desc,
            None,
            ums.to_string(),
            |v| v.to_string(),
        ));
    }
    for v in [true, false] {
        cases.push(case(
            v,
            PhoenixType::Boolean,
            false,
            None,
            v.to_string(),
            |v| v.to_string(),
        ));
    }
}

fn floats(rng: &mut Rng, cases: &mut Vec<Case>) {
    let edges = [
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MIN_POSITIVE,
        5e-324,
        -5e-324,
        f64::MAX,
        f64::MIN,
    ];
    for i in 0..800u64 {
        let desc = i % 2 == 1;
        let r = rng.next_u64();
        let d = if i < edges.len() as u64 {
            edges[i as usize]
        } else {
            f64::from_bits(r)
        };
        let show_d: fn(&f64) -> String = |v| format!("{:x}", v.to_bits());
        cases.push(case(
            d,
            PhoenixType::Double,
            desc,
            None,
            format!("{:x}", d.to_bits()),
            show_d,
        ));
        let f = if i < edges.len() as u64 {
            d as f32
        } else {
            f32::from_bits(r as u32)
        };
        let show_f: fn(&f32) -> String = |v| format!("{:x}", v.to_bits());
        cases.push(case(
            f,
            PhoenixType::Float,
            desc,
            None,
            format!("{:x}", f.to_bits()),
            show_f,
        ));
        let ud = if d.is_nan() { f64::NAN } else { d.abs() };
        cases.push(case(
            ud,
            PhoenixType::UnsignedDouble,
            desc,
            None,
            format!("{:x}", ud.to_bits()),
            show_d,
        ));
        let uf = if f.is_nan() { f32::NAN } else { f.abs() };
        cases.push(case(
            uf,
            PhoenixType::UnsignedFloat,
            desc,
            None,
            format!("{:x}", uf.to_bits()),
            show_f,
        ));
    }
}

/// A decimal's digits as Java's `BigDecimal` text (`-1.2345E+3`).
fn big_decimal(d: &DecimalDigits) -> String {
    if d.digits().is_empty() {
        return "0".into();
    }
    let digits: String = d.digits().iter().map(|x| char::from(b'0' + x)).collect();
    let sign = if d.negative { "-" } else { "" };
    format!("{sign}0.{digits}E{}", d.point)
}

/// Java's `BigDecimal.toString` read back as digits.
fn parse_big_decimal(text: &str) -> DecimalDigits {
    let negative = text.starts_with('-');
    let text = text.trim_start_matches('-');
    let (mantissa, exp) = text.split_once('E').unwrap_or((text, "0"));
    let exp: i32 = exp.trim_start_matches('+').parse().expect("an exponent");
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all: u128 = format!("{int}{frac}").parse().expect("digits");
    DecimalDigits::from_scaled(negative, all, frac.len() as i32 - exp).expect("38 digits")
}

fn decimals(rng: &mut Rng, cases: &mut Vec<Case>) {
    for i in 0..1500u64 {
        let desc = i % 2 == 1;
        let r = rng.next_u64();
        let digits = 1 + (r % 38) as u32;
        let m =
            (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())) % 10u128.pow(digits);
        let scale = (r >> 8) as i32 % 58 - 20;
        let Some(d) = DecimalDigits::from_scaled(r >> 20 & 1 == 1, m, scale) else {
            continue;
        };
        let Ok(bytes) = decimal_bytes(&d) else {
            continue;
        };
        let text = big_decimal(&d);
        let order = if desc { "desc" } else { "asc" };
        cases.push(Case {
            line: format!("DECIMAL {order} - {text}"),
            ours: bytes.as_slice().to_vec(),
            desc,
            read: Box::new(|asc| match decimal_from(asc) {
                Ok(d) => format!("{d:?}"),
                Err(e) => format!("rowkey refuses: {e:?}"),
            }),
        });
    }
}

fn temporal_and_text(rng: &mut Rng, cases: &mut Vec<Case>) {
    for i in 0..600u64 {
        let desc = i % 2 == 1;
        let r = rng.next_u64();
        let ms = (r as i64 >> (r % 64)) % 250_000_000_000_000;
        let t = PhoenixTimestamp::new(ms, (r >> 40) as u32 % 1_000_000).unwrap();
        let show: fn(&PhoenixTimestamp) -> String =
            |t| format!("{}.{}", t.millis(), t.sub_millis());
        cases.push(case(t, PhoenixType::Timestamp, desc, None, show(&t), show));
        let chars: String = (0..1 + r % 12)
            .map(|k| {
                let c = (rng.next_u64() >> (k % 3 * 7)) as u32 % 0x2_0000;
                char::from_u32(c).filter(|c| *c != '\0').unwrap_or('x')
            })
            .collect();
        let varchar = PhoenixType::Varchar { max_chars: None };
        let show_s: fn(&String) -> String = |s| hex(s.as_bytes());
        cases.push(case(
            chars.clone(),
            varchar,
            desc,
            None,
            hex(chars.as_bytes()),
            show_s,
        ));
        let ascii: String = chars
            .chars()
            .map(|c| char::from(b'!' + (c as u32 % 90) as u8))
            .collect();
        let len = ascii.len() as u32 + (r % 4) as u32;
        cases.push(case(
            ascii.clone(),
            PhoenixType::Char { len },
            desc,
            Some(len),
            hex(ascii.as_bytes()),
            show_s,
        ));
        let bytes: Vec<u8> = (0..1 + r % 9).map(|_| rng.next_u64() as u8).collect();
        let n = bytes.len() as u32;
        let show_b: fn(&Vec<u8>) -> String = |b| hex(b);
        cases.push(case(
            bytes.clone(),
            PhoenixType::Binary { len: n },
            desc,
            Some(n),
            hex(&bytes),
            show_b,
        ));
        cases.push(case(
            bytes.clone(),
            PhoenixType::Varbinary,
            false,
            None,
            hex(&bytes),
            show_b,
        ));
    }
}

#[test]
fn every_type_is_written_and_read_as_phoenix_does() {
    let mut rng = Rng(0x9E05);
    let mut cases = Vec::new();
    ints(&mut rng, &mut cases);
    floats(&mut rng, &mut cases);
    decimals(&mut rng, &mut cases);
    temporal_and_text(&mut rng, &mut cases);
    assert!(cases.len() > 14_000, "{}", cases.len());
    let lines: Vec<String> = cases.iter().map(|c| c.line.clone()).collect();
    let answers = rowkey_fixtures::hbase::java_lines("rowkey.testing.PhoenixCodec", true, &lines);
    for (c, answer) in cases.iter().zip(&answers) {
        let (theirs, back) = answer
            .split_once(' ')
            .unwrap_or_else(|| panic!("{} -> {answer}", c.line));
        let want: Vec<u8> = if c.desc {
            c.ours.iter().map(|b| !b).collect()
        } else {
            c.ours.clone()
        };
        assert_eq!(hex(&want), theirs, "{}: the bytes", c.line);
        // What Phoenix reads from its bytes is what rowkey reads.
        let asc: Vec<u8> = if c.desc {
            unhex(theirs).iter().map(|b| !b).collect()
        } else {
            unhex(theirs)
        };
        let ours = (c.read)(&asc);
        let back = if c.line.starts_with("DECIMAL") {
            format!("{:?}", parse_big_decimal(back))
        } else {
            back.to_owned()
        };
        assert_eq!(ours, back, "{}: the value read back", c.line);
    }
}
