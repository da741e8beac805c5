//! Unit and property tests of `framing`: every framing, reversal and
//! inversion roundtrips; bad bytes give errors.
use super::*;
use crate::error::DecodeErrorKind;
use proptest::prelude::*;

fn codec(framing: Framing, max: usize, reverse: Reverse, desc: bool) -> BytesCodec {
    BytesCodec {
        framing,
        max_len: max,
        reverse,
        desc,
        separator: None,
    }
}

fn enc(c: &BytesCodec, v: &[u8], text: bool) -> Result<Vec<u8>, EncodeError> {
    let mut out = vec![0u8; c.max_encoded_len() + 4];
    let mut w = KeyWriter::new(&mut out, "T");
    c.put(&mut w, v, text)?;
    let n = w.finish();
    out.truncate(n);
    Ok(out)
}

fn dec(c: &BytesCodec, b: &[u8]) -> Result<Vec<u8>, DecodeError> {
    let mut r = KeyReader::new(b, "T");
    let v = c.take_owned::<Vec<u8>>(&mut r)?;
    r.finish()?;
    Ok(v)
}

fn dec_text(c: &BytesCodec, b: &[u8]) -> Result<String, DecodeError> {
    let mut r = KeyReader::new(b, "T");
    let v = c.take_owned::<String>(&mut r)?;
    r.finish()?;
    Ok(v)
}

const PAD_LEFT: Framing = Framing::Padded {
    width: 4,
    fill: 1,
    side: Side::Left,
};
const PAD_RIGHT: Framing = Framing::Padded {
    width: 4,
    fill: 0,
    side: Side::Right,
};

#[test]
fn pad_rejects_fill_at_edge_and_overflow() {
    let c = codec(PAD_LEFT, 4, Reverse::No, false);
    let e = enc(&c, b"\x01ab", false).unwrap_err();
    assert_eq!(
        e.kind(),
        EncodeErrorKind::FillAtEdge {
            fill: 1,
            side: Side::Left
        }
    );
    assert_eq!(
        enc(&c, b"abcde", false).unwrap_err().kind(),
        EncodeErrorKind::TooLong { len: 5, max: 4 }
    );
    // A codec built by hand with max_len above the width errors, never
    // panics.
    let odd = codec(PAD_RIGHT, 9, Reverse::No, false);
    assert_eq!(
        enc(&odd, b"abcdef", false).unwrap_err().kind(),
        EncodeErrorKind::TooLong { len: 6, max: 4 }
    );
}

#[test]
fn decode_rejects_values_over_max_len() {
    let raw = codec(Framing::Raw, 2, Reverse::No, false);
    assert_eq!(
        dec(&raw, b"abc").unwrap_err().kind(),
        DecodeErrorKind::TooLong { len: 3, max: 2 }
    );
    let esc = codec(Framing::Escaped, 2, Reverse::No, false);
    assert_eq!(
        dec(&esc, b"abc\x00\x01").unwrap_err().kind(),
        DecodeErrorKind::TooLong { len: 3, max: 2 }
    );
}

#[test]
fn padded_prefix_cannot_end_with_the_fill() {
    let c = codec(
        Framing::Padded {
            width: 4,
            fill: 0,
            side: Side::Right,
        },
        4,
        Reverse::No,
        false,
    );
    let mut buf = [0u8; 8];
    let mut w = KeyWriter::new(&mut buf, "K");
    let e = c.put_prefix(&mut w, b"a\0").unwrap_err();
    assert_eq!(
        e.kind(),
        EncodeErrorKind::FillAtEdge {
            fill: 0,
            side: Side::Right
        }
    );
    let mut w = KeyWriter::new(&mut buf, "K");
    c.put_prefix(&mut w, b"a\0b").unwrap();
    assert_eq!(w.finish(), 3);
}

#[test]
fn reversed_text_must_be_utf8() {
    let c = codec(PAD_RIGHT, 4, Reverse::Chars, false);
    assert_eq!(dec_text(&c, &[0xC2, 0x80, 0, 0]).unwrap(), "\u{80}");
    assert_eq!(
        dec_text(&c, &[0x80, 0xC2, 0, 0]).unwrap_err().kind(),
        DecodeErrorKind::InvalidUtf8
    );
}

fn framings() -> impl Strategy<Value = (Framing, bool, Reverse)> {
    (
        prop::sample::select(vec![Framing::Escaped, Framing::Raw, PAD_LEFT, PAD_RIGHT]),
        any::<bool>(),
        prop::sample::select(vec![Reverse::No, Reverse::Chars, Reverse::Segments(b'.')]),
    )
}

proptest! {
    #[test]
    fn roundtrip_every_framing(
        (framing, desc, reverse) in framings(),
        v in prop::collection::vec(prop::sample::select(vec![0u8, 1, b'.', b'a', 0xFF]), 0..=4),
    ) {
        let c = codec(framing, 4, reverse, desc);
        match enc(&c, &v, false) {
            Ok(bytes) => {
                prop_assert_eq!(bytes.len(), c.encoded_len(&v));
                prop_assert_eq!(dec(&c, &bytes).unwrap(), v);
            }
            // Only a fill byte at the padded edge is refused.
            Err(e) => {
                let refused_fill = matches!(e.kind(), EncodeErrorKind::FillAtEdge { .. });
                prop_assert!(refused_fill, "unexpected error {:?}", e);
            }
        }
    }

    #[test]
    fn text_roundtrip_every_framing((framing, desc, reverse) in framings(), s in "[a.é中]{0,2}".prop_filter("fits the pad", |s| s.len() <= 4)) {
        let c = codec(framing, 4, reverse, desc);
        let bytes = enc(&c, s.as_bytes(), true).unwrap();
        prop_assert_eq!(dec_text(&c, &bytes).unwrap(), s);
    }

    #[test]
    fn arbitrary_bytes_never_panic((framing, desc, reverse) in framings(), b in prop::collection::vec(any::<u8>(), 0..10)) {
        let c = codec(framing, 4, reverse, desc);
        let _ = dec(&c, &b);
        let _ = dec_text(&c, &b);
        if c.can_borrow() {
            let mut r = KeyReader::new(&b, "T");
            let _ = c.take_borrowed::<&str>(&mut r);
        }
    }
}
