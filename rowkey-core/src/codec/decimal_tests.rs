//! Digits: golden bytes, widths, reversal, inversion and refusals.

use super::*;

/// One digit short of the type's largest value never overflows (the
/// unchecked path); a full-width number that does is an error.
#[test]
fn digits_at_the_overflow_boundary() {
    fn nines(n: usize) -> Vec<u8> {
        vec![b'9'; n]
    }
    fn parse<T: TextInt>(s: &[u8]) -> Result<T, Option<usize>> {
        T::parse_digits(s.len(), |i| s[i])
    }
    assert_eq!(parse::<u8>(&nines(2)), Ok(99));
    assert_eq!(parse::<u8>(&nines(3)), Err(None));
    assert_eq!(parse::<i8>(&nines(2)), Ok(99));
    assert_eq!(parse::<i8>(&nines(3)), Err(None));
    assert_eq!(parse::<u64>(&nines(19)), Ok(9_999_999_999_999_999_999));
    assert_eq!(parse::<u64>(&nines(20)), Err(None));
    assert_eq!(parse::<i64>(&nines(18)), Ok(999_999_999_999_999_999));
    assert_eq!(parse::<i64>(&nines(19)), Err(None));
    assert_eq!(parse::<i64>(b"9223372036854775807"), Ok(i64::MAX));
    assert_eq!(parse::<u128>(&nines(38)).map(|v| v + 1), Ok(10u128.pow(38)));
    assert_eq!(parse::<u32>(b"12x"), Err(Some(2)));
    assert_eq!(parse::<u32>(b"00000000012x"), Err(Some(11)));
}
use proptest::prelude::*;

fn enc<T: TextInt>(d: Digits, v: T) -> Result<Vec<u8>, EncodeError> {
    let mut out = vec![0u8; d.width];
    let mut w = KeyWriter::new(&mut out, "T");
    d.put(&mut w, v)?;
    Ok(out)
}
fn dec<T: TextInt>(d: Digits, b: &[u8]) -> Result<T, DecodeError> {
    let mut r = KeyReader::new(b, "T");
    let v = d.take(&mut r)?;
    r.finish()?;
    Ok(v)
}

#[test]
fn seed_values() {
    assert_eq!(
        enc(Digits::new(11), 13812345678u64).unwrap(),
        b"13812345678"
    );
    assert_eq!(
        enc(Digits::new(14), 20211201120000u64).unwrap(),
        b"20211201120000"
    );
    assert_eq!(enc(Digits::new(6), 42u32).unwrap(), b"000042");
    let rev = Digits {
        reverse: true,
        ..Digits::new(11)
    };
    assert_eq!(enc(rev, 13812345678u64).unwrap(), b"87654321831");
    assert_eq!(dec::<u64>(rev, b"87654321831").unwrap(), 13812345678);
}

#[test]
fn errors() {
    let e = enc(Digits::new(3), 1000u32).unwrap_err();
    assert_eq!(
        e.kind(),
        EncodeErrorKind::TooManyDigits {
            digits: 4,
            width: 3
        }
    );
    let e = enc(Digits::new(3), -1i32).unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::NegativeText);
    let e = dec::<u8>(Digits::new(3), b"256").unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::Overflow);
    let e = dec::<u8>(Digits::new(3), b"1x3").unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::InvalidDigit { byte: b'x' });
    assert_eq!(e.offset(), 1);
    assert_eq!(
        enc(Digits::new(39), u128::MAX).unwrap(),
        u128::MAX.to_string().as_bytes()
    );
}

proptest! {
    #[test]
    fn roundtrip_and_order(a: u64, b: u64, reverse: bool, desc: bool) {
        let d = Digits { width: 20, reverse, desc };
        let (ea, eb) = (enc(d, a).unwrap(), enc(d, b).unwrap());
        prop_assert_eq!(dec::<u64>(d, &ea).unwrap(), a);
        prop_assert_eq!(ea == eb, a == b);
        if !reverse {
            let want = if desc { b.cmp(&a) } else { a.cmp(&b) };
            prop_assert_eq!(ea.cmp(&eb), want);
        }
    }

    #[test]
    fn signed_roundtrip(a in 0i64..=i64::MAX, width in 19usize..25) {
        let d = Digits::new(width);
        prop_assert_eq!(dec::<i64>(d, &enc(d, a).unwrap()).unwrap(), a);
    }

    #[test]
    fn narrow_width_rejects_or_roundtrips(a: u32, width in 1usize..12) {
        let d = Digits::new(width);
        match enc(d, a) {
            Ok(e) => prop_assert_eq!(dec::<u32>(d, &e).unwrap(), a),
            Err(_) => prop_assert!(a.to_string().len() > width),
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..45), reverse: bool, desc: bool) {
        for width in [1usize, 3, 20, 39] {
            let d = Digits { width, reverse, desc };
            let _ = dec::<u128>(d, &b);
            let _ = dec::<i8>(d, &b);
        }
    }
}
