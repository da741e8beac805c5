//! `Record::to_key`, which the derive writes from the record's own fields
//! without building the key, gives the bytes (or the error) of
//! `record.key().to_key()` for every shape of key: text, padding and
//! reversed time; `Option` and escaped fields; a salt grouped by a field;
//! a custom salt hash (which takes the whole key, so is built); fields in
//! another order than the key's, and cells between them.

use proptest::prelude::*;
use rowkey::store::Record;
use rowkey::{Record, RowKey};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct SpendKey {
    #[text(width = 6)]
    month: u32,
    #[pad(width = 10, fill = 0x01, align = left)]
    user: String,
    #[desc_ts]
    at_ms: i64,
}

/// Key fields in another order than the key's, a cell between them.
#[derive(Record, Debug, Clone, PartialEq)]
#[record(key = SpendKey, family = "d")]
struct Spend {
    at_ms: i64,
    cents: i64,
    user: String,
    month: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct TaggedKey {
    #[salt(buckets = 12, group_by = region, range = 0..=2, per_group = 4)]
    #[max_len(8)]
    name: String,
    #[text(width = 1)]
    region: u8,
    #[max_len(6)]
    tag: Option<String>,
    #[desc]
    seq: u64,
}

#[derive(Record, Debug, Clone, PartialEq)]
#[record(key = TaggedKey, family = "d")]
struct Tagged {
    seq: u64,
    tag: Option<String>,
    name: String,
    region: u8,
    note: Option<String>,
}

fn by_first_byte(key: &CustomKey) -> u32 {
    u32::from(key.user.bytes().next().unwrap_or(0))
}

/// A custom salt hash takes `&CustomKey`: the record builds its key.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct CustomKey {
    #[salt(buckets = 5, hash = by_first_byte)]
    #[max_len(8)]
    user: String,
    at: i64,
}

#[derive(Record, Debug, Clone, PartialEq)]
#[record(key = CustomKey, family = "d")]
struct Custom {
    user: String,
    at: i64,
    v: u8,
}

/// Both ways to the key's bytes agree, on the bytes or on the error.
fn agree<R: Record>(r: &R) -> Result<(), TestCaseError> {
    let direct = r
        .to_key()
        .map(|k| k.as_ref().to_vec())
        .map_err(|e| e.to_string());
    let built = r
        .key()
        .to_key()
        .map(|k| k.as_ref().to_vec())
        .map_err(|e| e.to_string());
    prop_assert_eq!(direct, built);
    Ok(())
}

proptest! {
    #[test]
    fn a_records_key_bytes_are_its_keys(
        month in 0u32..1_100_000,
        user in "[\\x00-\\x7f]{0,12}",
        at_ms in any::<i64>(),
        cents in any::<i64>(),
    ) {
        // Out of range months, users too long and negative times are
        // errors both ways.
        agree(&Spend { at_ms, cents, user, month })?;
    }

    #[test]
    fn grouped_salts_options_and_escapes_agree(
        name in "\\PC{0,10}",
        region in 0u8..4,
        tag in proptest::option::of("[a\\x00b]{0,6}"),
        seq in any::<u64>(),
        note in proptest::option::of(".{0,4}"),
    ) {
        agree(&Tagged { seq, tag, name, region, note })?;
    }

    #[test]
    fn a_custom_hash_builds_the_key(user in "\\PC{0,10}", at in any::<i64>(), v in any::<u8>()) {
        agree(&Custom { user, at, v })?;
    }
}

#[test]
fn the_bytes_are_the_hand_written_ones() {
    let s = Spend {
        at_ms: 1_638_316_800_000,
        cents: 1250,
        user: "zhangsan".into(),
        month: 202112,
    };
    let key = s.to_key().unwrap();
    let mut out = [0u8; 24];
    rowkey_fixtures::hand::spend_by_hand(s.month, &s.user, s.at_ms, &mut out).unwrap();
    assert_eq!(&*key, &out[..]);
}

/// Field names the generated locals are built from: a leading underscore
/// and a name that is not snake case (CI's clippy runs with `-D
/// warnings`, so a lint the derive leaks on them fails the build).
#[allow(non_snake_case)]
#[derive(RowKey, Debug, Clone, PartialEq)]
struct OddNamesKey {
    _pad: u8,
    userID: u32,
    r#type: u16,
}

#[allow(non_snake_case)]
#[derive(Record, Debug, Clone, PartialEq)]
#[record(key = OddNamesKey, family = "d")]
struct OddNames {
    r#type: u16,
    userID: u32,
    _pad: u8,
    note: u8,
}

#[test]
fn field_names_of_any_shape() {
    let r = OddNames {
        r#type: 3,
        userID: 7,
        _pad: 1,
        note: 0,
    };
    assert_eq!(&*r.to_key().unwrap(), [1, 0, 0, 0, 7, 0, 3]);
    agree(&r).unwrap();
}

/// A hand-written part that writes one byte more than its `MAX_LEN` says:
/// a broken contract, which gives the same error however the key is
/// written, and a buffer with room for the extra byte takes it.
#[derive(Debug, Clone, PartialEq)]
struct Liar;

impl rowkey::KeyPart for Liar {
    const MAX_LEN: usize = 1;
    const FIXED_LEN: Option<usize> = Some(1);
    fn encoded_len(&self) -> usize {
        2
    }
    fn encode(&self, w: &mut rowkey::KeyWriter<'_>) -> Result<(), rowkey::EncodeError> {
        w.put(&[7, 7])
    }
}

impl<'de> rowkey::DecodePart<'de> for Liar {
    fn decode(r: &mut rowkey::KeyReader<'de>) -> Result<Self, rowkey::DecodeError> {
        r.take_array::<1>().map(|_| Liar)
    }
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct LiarKey {
    id: u8,
    liar: Liar,
}

#[derive(Record, Debug, Clone, PartialEq)]
#[record(key = LiarKey, family = "d")]
struct LiarRecord {
    id: u8,
    liar: Liar,
    v: u8,
}

#[test]
fn a_part_that_writes_past_its_max_len_errs_alike() {
    let r = LiarRecord {
        id: 1,
        liar: Liar,
        v: 0,
    };
    let err = r.to_key().unwrap_err();
    assert_eq!(err.to_string(), r.key().to_key().unwrap_err().to_string());
    assert!(
        matches!(
            err.kind(),
            rowkey::EncodeErrorKind::BufferTooSmall { needed: 3, .. }
        ),
        "{err}"
    );
    // `encode_into` a buffer longer than `MAX_LEN` (2): the part's extra
    // byte fits, as it did before the constant-length path.
    let mut out = [0u8; 8];
    assert_eq!(r.key().encode_into(&mut out).unwrap(), 3);
    assert_eq!(out[..3], [1, 7, 7]);
}
