//! `explain()` says what the bytes are: each binary field's description
//! is checked against the bytes the key actually holds.

use rowkey::{KeyPart, RowKey};

#[derive(KeyPart, Debug, Clone, Copy, PartialEq)]
struct Token([u8; 4]);

#[derive(RowKey, Debug, PartialEq)]
struct Conv {
    unsigned: u64,
    signed: i64,
    token: Token,
    maybe: Option<u32>,
}

#[test]
fn binary_fields_are_described_as_stored() {
    let key = Conv {
        unsigned: 7,
        signed: 7,
        token: Token(*b"abcd"),
        maybe: Some(7),
    }
    .to_key()
    .unwrap();
    // Unsigned: plain big-endian. Signed: the sign bit flipped. Parts:
    // their own bytes. Option: a tag, then the value.
    assert_eq!(&key[..8], &7u64.to_be_bytes());
    assert_eq!(&key[8..16], &(7u64 | 1 << 63).to_be_bytes());
    assert_eq!(&key[16..20], b"abcd");
    assert_eq!(&key[20..], &[1, 0, 0, 0, 7]);
    let text = Conv::layout().explain();
    assert!(text.contains("u64 as binary (big-endian)"), "{text}");
    assert!(
        !text.contains("u64 as binary (big-endian, sign bit flipped)"),
        "{text}"
    );
    assert!(
        text.contains("i64 as binary (big-endian, sign bit flipped)"),
        "{text}"
    );
    assert!(text.contains("Token as its KeyPart bytes"), "{text}");
    assert!(
        text.contains("Option<u32> as binary (big-endian)"),
        "{text}"
    );
}
