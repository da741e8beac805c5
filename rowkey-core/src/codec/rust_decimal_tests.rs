use super::*;
use crate::codec::test_util::{dec, enc};
use proptest::prelude::*;

fn d(s: &str) -> Decimal {
    s.parse().unwrap()
}

fn e(s: &str) -> Vec<u8> {
    enc(d(s)).unwrap()
}

fn why(bytes: &[u8]) -> (usize, DecodeErrorKind) {
    let err = dec::<Decimal>(bytes).unwrap_err();
    (err.offset(), err.kind())
}

#[test]
fn golden() {
    assert_eq!(e("0"), [0x80]);
    assert_eq!(e("-0.000"), [0x80]);
    assert_eq!(e("1"), [0x8F, 0x02]); // 0.01 × 100^1
    assert_eq!(e("1.5"), [0x8F, 0x03, 0x64]); // 0.01 50 × 100^1
    assert_eq!(e("1.50"), e("1.5"));
    assert_eq!(e("100"), [0x90, 0x02]); // 0.01 × 100^2
    assert_eq!(e("1000"), [0x90, 0x14]); // 0.10 × 100^2
    assert_eq!(e("0.5"), [0x8E, 0x64]); // 0.50 × 100^0
    assert_eq!(e("0.01"), [0x8E, 0x02]);
    assert_eq!(e("0.001"), [0x8D, 0x14]); // 0.10 × 100^-1
    assert_eq!(e("19.99"), [0x8F, 0x27, 0xC6]);
    assert_eq!(e("-1.5"), [!0x8Fu8, !0x03, !0x64]);
    assert_eq!(enc(Decimal::new(1, 28)).unwrap(), [0x81, 0x02]); // the smallest positive
    let max = enc(Decimal::MAX).unwrap();
    assert_eq!(max.len(), 16);
    assert_eq!(max[..3], [0x9D, 0x0F, 0xB9]); // 0.07 92 … × 100^15
    let min = enc(Decimal::MIN).unwrap();
    assert_eq!(min, max.iter().map(|b| !b).collect::<Vec<_>>());
}

#[test]
fn order_across_signs_scales_and_extremes() {
    let ladder = [
        Decimal::MIN,
        d("-1000"),
        d("-100.5"),
        d("-1"),
        d("-0.5"),
        Decimal::new(-1, 28),
        Decimal::ZERO,
        Decimal::new(1, 28),
        Decimal::new(11, 28),
        d("0.001"),
        d("0.0011"),
        d("0.01"),
        d("0.5"),
        d("0.51"),
        d("1"),
        d("1.0000000000000000000000000001"),
        d("1.5"),
        d("10"),
        d("99.99"),
        d("100"),
        Decimal::MAX,
    ];
    let bytes: Vec<_> = ladder.iter().map(|v| enc(*v).unwrap()).collect();
    for (pair, v) in bytes.windows(2).zip(ladder.windows(2)) {
        assert!(pair[0] < pair[1], "{} then {}", v[0], v[1]);
    }
}

#[test]
fn decode_gives_the_normalised_value() {
    let back = dec::<Decimal>(&e("1.500")).unwrap();
    assert_eq!((back.mantissa(), back.scale()), (15, 1));
    let back = dec::<Decimal>(&e("1200")).unwrap();
    assert_eq!((back.mantissa(), back.scale()), (1200, 0));
    let back = dec::<Decimal>(&e("-0.0")).unwrap();
    assert!(back.is_zero() && !back.is_sign_negative());
}

#[test]
fn non_canonical_bytes_are_refused_at_the_byte() {
    let invalid = DecodeErrorKind::Invalid;
    assert_eq!(why(&[0x7E]).1, DecodeErrorKind::UnexpectedEnd { needed: 1 });
    assert_eq!(
        why(&[0x7F, 0xFD]),
        (0, invalid("not a Decimal header byte"))
    );
    assert_eq!(
        why(&[0x9E, 0x02]),
        (0, invalid("not a Decimal header byte"))
    );
    assert_eq!(
        why(&[0x61, 0xFD]),
        (0, invalid("not a Decimal header byte"))
    );
    let lead = invalid("a leading zero digit: rowkey writes normalised Decimals");
    assert_eq!(why(&[0x8F, 0x01, 0x02]), (1, lead)); // 0.00 01 × 100^1
    let trail = invalid("a trailing zero digit: rowkey writes normalised Decimals");
    assert_eq!(why(&[0x8F, 0x03, 0x00]), (2, trail)); // 0.01 00 × 100^1
    let above = invalid("a Decimal digit byte above 199");
    assert_eq!(why(&[0x8F, 0xC9, 0x02]), (1, above));
    let places = invalid("more than 28 decimal places, past Decimal's precision");
    assert_eq!(why(&[0x81, 0x03, 0x02]), (0, places)); // 1.01e-28
    let beyond = invalid("a value beyond Decimal::MAX");
    assert_eq!(why(&[0x9D, 0x12]), (0, beyond)); // 0.09 × 100^15
    let mut long = vec![0x8F];
    long.extend([0x03; 16]);
    assert_eq!(
        why(&long),
        (15, invalid("more than 15 Decimal digit bytes"))
    );
    // A negative value's digits are read inverted too.
    assert_eq!(why(&[!0x8Fu8, !0x01, !0x02]), (1, lead));
}

/// Any decimal: a mantissa of up to 96 bits and a scale of up to 28,
/// weighted towards the edges (zeros, trailing zeros, the extremes).
fn decimal() -> impl Strategy<Value = Decimal> {
    let mantissa = prop_oneof![
        any::<i128>().prop_map(|m| m % (MAX_MANTISSA as i128 + 1)),
        -1000i128..1000,
        (-20i128..20, 0u32..28).prop_map(|(m, z)| m * 10i128.pow(z)),
        Just(MAX_MANTISSA as i128),
        Just(-(MAX_MANTISSA as i128)),
    ];
    (mantissa, 0u32..=28).prop_map(|(m, s)| Decimal::from_i128_with_scale(m, s))
}

/// Bytes near the format: a valid header and digit bytes, so that decode
/// gets past the header often.
fn near_bytes() -> impl Strategy<Value = Vec<u8>> {
    let header = prop_oneof![0x60u8..=0x7F, Just(0x80), 0x81u8..=0x9F, any::<u8>()];
    let digits = proptest::collection::vec(any::<u8>(), 0..18);
    (header, digits).prop_map(|(h, mut d)| {
        d.insert(0, h);
        d
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Roundtrip to the normalised value, numeric order, injectivity
    /// (bytes equal exactly when the values are), prefix-freedom.
    #[test]
    fn roundtrip_order_injective(a in decimal(), b in decimal()) {
        let (ea, eb) = (enc(a).unwrap(), enc(b).unwrap());
        prop_assert_eq!(ea.len(), a.encoded_len());
        let back = dec::<Decimal>(&ea).unwrap();
        prop_assert_eq!(back, a);
        let norm = a.normalize();
        prop_assert_eq!((back.mantissa(), back.scale()), (norm.mantissa(), norm.scale()));
        prop_assert_eq!(a.cmp(&b), ea.cmp(&eb));
        prop_assert_eq!(a == b, ea == eb);
        prop_assert!(a == b || !eb.starts_with(&ea));
    }

    /// Every byte string decodes to a value that writes it back, or is an
    /// error; never a panic.
    #[test]
    fn canonical_decode(bytes in prop_oneof![near_bytes(), proptest::collection::vec(any::<u8>(), 0..20)]) {
        if let Ok(v) = dec::<Decimal>(&bytes) {
            prop_assert_eq!(enc(v).unwrap(), bytes);
        }
    }
}

/// Every string of one or two bytes, and every three-byte string under a
/// positive and a negative header: what decodes writes the same bytes.
#[test]
fn short_strings_exhaustively() {
    let mut decoded = 0;
    let mut check = |bytes: &[u8]| {
        if let Ok(v) = dec::<Decimal>(bytes) {
            assert_eq!(enc(v).unwrap(), bytes, "{v}");
            decoded += 1;
        }
    };
    for a in 0..=255u8 {
        check(&[a]);
        for b in 0..=255u8 {
            check(&[a, b]);
            for header in [0x8F, 0x70] {
                check(&[header, a, b]);
            }
        }
    }
    // Zero; 58 headers × 99 last digits, but only 1..=7 × 100^14 below
    // Decimal::MAX at the largest exponent (either sign); two headers ×
    // 99 first digits × 99 last digits.
    assert_eq!(decoded, 1 + (58 * 99 - 2 * 92) + 2 * 99 * 99);
}
