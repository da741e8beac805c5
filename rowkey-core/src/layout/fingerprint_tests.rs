//! The fingerprint's encoding pinned by hand, names left out, parsing.

use super::*;
use crate::layout::Order;

const U64: ValueKind = ValueKind::Int {
    bytes: 8,
    signed: false,
};

fn layout(name: &'static str, fields: &'static [FieldLayout]) -> Layout {
    Layout {
        format_version: 2,
        name,
        separator: None,
        max_len: 8 * fields.len(),
        fixed_len: Some(8 * fields.len()),
        prefix: None,
        fields,
    }
}

/// The encoding written out by hand: a change to it changes every
/// stored fingerprint, so it must come with a new magic.
#[test]
fn canonical_bytes_are_the_documented_encoding() {
    static FIELDS: [FieldLayout; 1] = [FieldLayout {
        name: "n",
        rust_type: "u64",
        value: U64,
        codec: FieldCodec::Binary,
        offset: Some(0),
        max_len: 8,
        fixed_len: Some(8),
        order: Order::Descending,
        optional: false,
        desc: true,
    }];
    let mut want = b"rowkey-layout-fp/1".to_vec();
    want.push(0); // no separator
    want.push(0); // no prefix
    want.extend_from_slice(&1u32.to_be_bytes());
    want.push(0); // binary codec
    want.extend_from_slice(&[0, 1]); // not optional, desc
    want.extend_from_slice(&[0, 8, 0]); // an unsigned 8-byte integer
    want.extend_from_slice(&8u64.to_be_bytes());
    want.push(1);
    want.extend_from_slice(&8u64.to_be_bytes());
    let l = layout("K", &FIELDS);
    assert_eq!(l.canonical_bytes(), want);
    assert_eq!(l.fingerprint(), Fingerprint(fnv1a_64(&want)));
    assert_eq!(l.fingerprint().to_string(), "bda439646245758d");
}

#[test]
fn names_are_left_out_and_desc_is_not() {
    static A: [FieldLayout; 2] = [FieldLayout { name: "a", ..FIELD }, FIELD];
    static B: [FieldLayout; 2] = [
        FieldLayout {
            name: "renamed",
            rust_type: "Id",
            ..FIELD
        },
        FIELD,
    ];
    static C: [FieldLayout; 2] = [
        FieldLayout {
            name: "a",
            desc: true,
            ..FIELD
        },
        FIELD,
    ];
    const FIELD: FieldLayout = FieldLayout {
        name: "b",
        rust_type: "u64",
        value: U64,
        codec: FieldCodec::Binary,
        offset: None,
        max_len: 8,
        fixed_len: Some(8),
        order: Order::Ascending,
        optional: false,
        desc: false,
    };
    assert_eq!(
        layout("K", &A).fingerprint(),
        layout("Other", &B).fingerprint()
    );
    assert_ne!(layout("K", &A).fingerprint(), layout("K", &C).fingerprint());
}

#[test]
fn fingerprints_parse_back() {
    let fp = Fingerprint(0x0123_4567_89ab_cdef);
    assert_eq!(fp.to_string(), "0123456789abcdef");
    assert_eq!("0123456789abcdef".parse(), Ok(fp));
    assert!("0123".parse::<Fingerprint>().is_err());
    assert!("+123456789abcdef".parse::<Fingerprint>().is_err());
}
