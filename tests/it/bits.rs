//! Bit-packed key parts (`#[derive(KeyPart)]` on a struct of `#[bits(n)]`
//! fields), through the derive: every value round-trips; bytes sort as
//! the fields do, first field first; different values give different
//! bytes; every byte string decodes to a value that writes it back, or is
//! refused, never a panic; a value wider than its bits is refused naming
//! the field. The layout describes the part, so its JSON, the layout
//! interpreter (what the CLI runs) and the fingerprint cover it.

use proptest::prelude::*;
use rowkey::{EncodeErrorKind, KeyPart, RowKey, ValueKind};

#[derive(KeyPart, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Packed {
    #[bits(3)]
    kind: u8,
    #[bits(1)]
    hot: bool,
    #[bits(20)]
    n: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Key {
    id: u16,
    p: Packed,
    tail: u8,
}

fn packed() -> impl Strategy<Value = Packed> {
    (0u8..8, any::<bool>(), 0u32..(1 << 20)).prop_map(|(kind, hot, n)| Packed { kind, hot, n })
}

fn key() -> impl Strategy<Value = Key> {
    (any::<u16>(), packed(), any::<u8>()).prop_map(|(id, p, tail)| Key { id, p, tail })
}

proptest! {
    #[test]
    fn packed_keys_roundtrip_sort_and_are_injective(a in key(), b in key()) {
        let (ka, kb) = (a.to_vec().unwrap(), b.to_vec().unwrap());
        prop_assert_eq!(ka.len(), 6);
        prop_assert_eq!(Key::decode(&ka).unwrap(), a.clone());
        let (ta, tb) = ((a.id, a.p, a.tail), (b.id, b.p, b.tail));
        prop_assert_eq!(ka.cmp(&kb), ta.cmp(&tb));
        prop_assert_eq!(ka == kb, a == b);
    }

    /// Any bytes: a key that writes them back, or an error; never a panic.
    #[test]
    fn any_bytes_decode_canonically_or_fail(bytes in proptest::collection::vec(any::<u8>(), 0..9)) {
        if let Ok(k) = Key::decode(&bytes) {
            prop_assert_eq!(k.to_vec().unwrap(), bytes.clone());
        }
        if let Ok(d) = Key::layout().decode_key(&bytes) {
            let back = Key::layout().encode_key(&d.values(), None).unwrap();
            prop_assert_eq!(back, bytes);
        }
    }

    /// The layout interpreter reads and writes what the derive does.
    #[test]
    fn the_layout_reads_and_writes_packed_parts(k in key()) {
        let bytes = k.to_vec().unwrap();
        let d = Key::layout().decode_key(&bytes).unwrap();
        let shown = d.get("p").unwrap().to_string();
        prop_assert_eq!(&shown, &format!("kind={},hot={},n={}", k.p.kind, k.p.hot, k.p.n));
        let typed = Key::layout().parse_value("p", &shown).unwrap();
        prop_assert_eq!(&typed, d.get("p").unwrap());
        let values = d.values();
        prop_assert_eq!(Key::layout().encode_key(&values, None).unwrap(), bytes);
    }
}

#[test]
fn values_wider_than_their_bits_are_refused_naming_the_field() {
    let k = Key {
        id: 1,
        p: Packed {
            kind: 8,
            hot: false,
            n: 0,
        },
        tail: 0,
    };
    let e = k.to_vec().unwrap_err();
    assert_eq!(
        e.kind(),
        EncodeErrorKind::TooManyBits {
            field: "kind",
            value: 8,
            bits: 3
        }
    );
    assert_eq!(
        e.to_string(),
        "cannot encode Key.p at byte 2: kind = 8 does not fit in its 3 bits (at most 7)"
    );
    // Typed in by a person: the field, its bits and its range.
    let l = Key::layout();
    assert!(l
        .parse_value("p", "kind=1,hot=true")
        .unwrap_err()
        .contains("field `n` is missing"));
    assert!(l
        .parse_value("p", "kind=9,hot=true,n=0")
        .unwrap_err()
        .contains("0 to 7"));
    assert!(l
        .parse_value("p", "kind=1,hot=yes,n=0")
        .unwrap_err()
        .contains("true or false"));
    assert!(l
        .parse_value("p", "kind=1,hot=true,n=0,x=1")
        .unwrap_err()
        .contains("no field `x`"));
}

#[test]
fn the_layout_describes_the_bits() {
    let l = Key::layout();
    let p = l.field("p").unwrap();
    assert_eq!((p.offset, p.fixed_len), (Some(2), Some(3)));
    let ValueKind::Bits { name, fields } = p.value else {
        panic!("{:?}", p.value)
    };
    assert_eq!(name, "Packed");
    let shape: Vec<(&str, u8, bool)> = fields.iter().map(|f| (f.name, f.bits, f.boolean)).collect();
    assert_eq!(
        shape,
        [("kind", 3, false), ("hot", 1, true), ("n", 20, false)]
    );
    // The JSON reads back to the same format.
    let json = serde_json::to_string(&l).unwrap();
    let back = rowkey::Layout::from_json(&json).unwrap();
    assert_eq!(back.fingerprint(), l.fingerprint());
    assert_eq!(back.field("p").unwrap().value, p.value);
    // Other bits are another format.
    #[derive(KeyPart, Clone, Copy)]
    struct Other {
        #[bits(4)]
        kind: u8,
        #[bits(20)]
        n: u32,
    }
    #[derive(RowKey)]
    struct OtherKey {
        id: u16,
        p: Other,
        tail: u8,
    }
    assert_ne!(OtherKey::layout().fingerprint(), l.fingerprint());
    assert!(
        l.explain().contains(
            "Packed as one big-endian word of bits, first field highest (kind:3 hot:1 n:20)"
        ),
        "{}",
        l.explain()
    );
}
