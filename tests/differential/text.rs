//! Text and bytes in every framing: escaped (in the middle) and raw (last)
//! under `#[max_len]`, `#[pad]` right and left with fills 0x00, 0x01,
//! 0xFF and `*`, `#[reverse]` and `#[reverse(segments)]`, `#[desc]` on
//! each that takes it, `Option`s of them; and the other text and byte
//! types (`&str`, `&[u8]`, `Cow`, `Box<str>`), borrowed where the framing
//! lets them.

use crate::values::{bytes, text, Noise};
use proptest::prelude::*;
use rowkey::RowKey;
use std::borrow::Cow;

matrix! {
    string_max_len: String [#[max_len(6)]] = text(6);
    string_max_len_desc: String [#[desc] #[max_len(6)]] = text(6);
    string_max_len_reverse: String [#[max_len(6)] #[reverse]] = text(6);
    string_max_len_segments: String [#[max_len(10)] #[reverse(segments = ".")]] = text(10);
    string_pad: String [#[pad(width = 6)]] = text(6);
    string_pad_left_fill_01: String [#[pad(width = 6, fill = 0x01, align = left)]] = text(6);
    string_pad_fill_star: String [#[pad(width = 5, fill = b'*')]] = text(5);
    string_pad_desc: String [#[desc] #[pad(width = 6)]] = text(6);
    string_pad_left_desc: String [#[desc] #[pad(width = 6, align = left)]] = text(6);
    string_pad_reverse: String [#[pad(width = 6)] #[reverse]] = text(6);
    string_pad_segments: String [#[pad(width = 10, fill = b'*')] #[reverse(segments = "_")]] = text(10);
    bytes_max_len: Vec<u8> [#[max_len(6)]] = bytes(6);
    bytes_max_len_desc: Vec<u8> [#[desc] #[max_len(6)]] = bytes(6);
    bytes_max_len_reverse: Vec<u8> [#[max_len(6)] #[reverse]] = bytes(6);
    bytes_max_len_segments: Vec<u8> [#[max_len(8)] #[reverse(segments = b'.')]] = bytes(8);
    bytes_pad: Vec<u8> [#[pad(width = 4)]] = bytes(4);
    bytes_pad_fill_ff: Vec<u8> [#[pad(width = 4, fill = 0xFF)]] = bytes(4);
    bytes_pad_left_fill_ff: Vec<u8> [#[pad(width = 4, fill = 0xFF, align = left)]] = bytes(4);
    bytes_pad_desc: Vec<u8> [#[desc] #[pad(width = 4, fill = 0x01)]] = bytes(4);
    bytes_pad_reverse: Vec<u8> [#[pad(width = 4, align = left)] #[reverse]] = bytes(4);
    box_str: Box<str> [#[max_len(5)]] = text(5).prop_map(String::into_boxed_str);
    box_bytes_desc: Box<[u8]> [#[desc] #[max_len(5)]] = bytes(5).prop_map(Vec::into_boxed_slice);
    option_string: Option<String> [#[max_len(4)]] = proptest::option::of(text(4));
    option_string_desc: Option<String> [#[desc] #[max_len(4)]] = proptest::option::of(text(4));
    option_string_pad_left: Option<String> [#[pad(width = 3, fill = 0x01, align = left)]] =
        proptest::option::of(text(3));
    option_bytes_pad: Option<Vec<u8>> [#[pad(width = 3)]] = proptest::option::of(bytes(3));
    option_bytes_reverse: Option<Vec<u8>> [#[max_len(3)] #[reverse]] = proptest::option::of(bytes(3));
}

/// Borrowed text and bytes where the framing keeps the value's bytes
/// (padded, raw last), `Cow`s where it does not (escaped, reversed).
#[derive(RowKey, Debug, PartialEq)]
pub struct Borrowed<'a> {
    #[pad(width = 6)]
    pub a: &'a str,
    #[pad(width = 3, fill = 0xFF)]
    pub b: &'a [u8],
    #[max_len(5)]
    pub c: Cow<'a, str>,
    #[max_len(4)]
    #[reverse]
    pub d: Cow<'a, [u8]>,
    #[desc]
    #[max_len(3)]
    pub e: Cow<'a, str>,
    #[max_len(6)]
    pub f: &'a str,
}

#[derive(RowKey, Debug, PartialEq)]
pub struct BorrowedLast<'a> {
    #[pad(width = 2, fill = 0x01, align = left)]
    pub a: Cow<'a, [u8]>,
    #[max_len(6)]
    pub b: &'a [u8],
}

case_impl!(Borrowed<'static> { a, b, c, d, e, f });
case_impl!(BorrowedLast<'static> { a, b });

/// A `'static` borrow of a generated value (a few bytes a case).
fn leak<T: ?Sized>(v: Box<T>) -> &'static T {
    Box::leak(v)
}

proptest! {
    #![proptest_config(crate::harness::config())]

    #[test]
    fn borrowed(a in text(6), b in bytes(3), c in text(5), d in bytes(4), e in text(3), f in text(6),
                noise in crate::values::noise()) {
        let v = Borrowed {
            a: leak(a.into_boxed_str()),
            b: leak(b.into_boxed_slice()),
            c: c.into(),
            d: d.into(),
            e: e.into(),
            f: leak(f.into_boxed_str()),
        };
        crate::harness::check(&v, &noise);
    }

    #[test]
    fn borrowed_last(a in bytes(2), b in bytes(6), noise in crate::values::noise()) {
        let v = BorrowedLast { a: a.into(), b: leak(b.into_boxed_slice()) };
        crate::harness::check(&v, &noise);
    }
}

/// The regression of the first disagreement the matrix found: bytes whose
/// `toStringBinary` reads as `0x` hex.
#[test]
fn bytes_that_look_like_hex_read_back_as_themselves() {
    let noise = Noise {
        edits: vec![],
        bytes: vec![],
    };
    for v in [&b"0x12"[..], b"0x1", b"0xAB", b"0X12", b"0x"] {
        crate::harness::check(
            &bytes_max_len::Last {
                head: 1,
                v: v.to_vec(),
            },
            &noise,
        );
    }
}
