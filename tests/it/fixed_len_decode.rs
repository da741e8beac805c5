//! Keys of a fixed-length layout are decoded with one length check when
//! they have that length; keys of any other length must still get the
//! precise error of the field where they end, or of the bytes after them.
//! (Run in release too: `cargo test --release --test it fixed_len_decode::`,
//! where the two paths are separate code.)

use proptest::prelude::*;
use rowkey::{DecodeErrorKind, RowKey};
use rowkey_fixtures::Spend;

#[derive(RowKey, Debug, PartialEq)]
struct Three {
    a: u64,
    b: i32,
    c: u64,
}

proptest! {
    #[test]
    fn cut_or_extended_keys_name_the_field_and_byte(
        a: u64, b: i32, c: u64,
        cut in 0usize..20,
        extra in prop::collection::vec(any::<u8>(), 1..4),
    ) {
        let v = Three { a, b, c };
        let key = v.to_key().unwrap();
        prop_assert_eq!(Three::FIXED_LEN, Some(20));
        prop_assert_eq!(Three::decode(&key).unwrap(), v);

        // Field starts 0, 8, 12; a key cut at `cut` ends inside one.
        let (field, start, width) = match cut {
            0..=7 => ("a", 0, 8),
            8..=11 => ("b", 8, 4),
            _ => ("c", 12, 8),
        };
        let e = Three::decode(&key[..cut]).unwrap_err();
        prop_assert_eq!((e.field(), e.offset()), (field, start));
        prop_assert_eq!(e.kind(), DecodeErrorKind::UnexpectedEnd { needed: start + width - cut });

        let long = [&key[..], &extra].concat();
        let e = Three::decode(&long).unwrap_err();
        prop_assert_eq!((e.field(), e.offset()), ("", 20));
        prop_assert_eq!(e.kind(), DecodeErrorKind::TrailingBytes { count: extra.len() });
    }
}

#[test]
fn a_bad_byte_before_the_cut_is_the_error() {
    let key = Spend {
        month: 202112,
        user: "zhangsan",
        at_ms: 5,
    }
    .to_key()
    .unwrap();
    let mut bad = key.to_vec();
    bad[2] = b'x';
    // Cut after the digits: a cut inside them is `UnexpectedEnd` first.
    for len in [6, 10, 23, 24, 25] {
        let mut k = bad.clone();
        k.resize(len, 0);
        let e = Spend::decode(&k).unwrap_err();
        assert_eq!((e.field(), e.offset()), ("month", 2), "len {len}");
        assert_eq!(
            e.kind(),
            DecodeErrorKind::InvalidDigit { byte: b'x' },
            "len {len}"
        );
    }
}
