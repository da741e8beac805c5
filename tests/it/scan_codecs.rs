//! A scan writes every field as the encoder does. The scan steps write a
//! field through `rowkey-core`'s codec types, which read their options
//! from the key's layout; the encoder is generated code with the options
//! inline. For every codec kind (binary parts, `#[desc]`, digits,
//! reversed digits, left and right padding, escaped, raw and
//! separator-joined text (values full of 0x00, 0x01, 0xFF, separators
//! and fill bytes), `Option`s, reversed timestamps in bytes and
//! digits, date, UUID and decimal text, reversed text and segments) and
//! adversarial values, with what a salt (the seed ledger's `group_by`
//! field and salted field) and a hash prefix learn from their fields, the whole
//! key a scan builds (`key()`) is the encoder's key, its `plan()` holds
//! exactly that key, and a range from the value to itself holds it too.

use chrono::NaiveDate;
use proptest::prelude::*;
use rowkey::RowKey;
use rowkey_fixtures::layouts::Ledger;
use rowkey_fixtures::strategies::nasty_text;
use rust_decimal::Decimal;
use uuid::Uuid;

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Binaries {
    a: u32,
    #[desc]
    b: i16,
    c: bool,
    d: char,
    #[desc]
    e: Option<u64>,
    f: Option<i32>,
    #[desc_ts]
    at: i64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Texts<'a> {
    #[text(width = 6)]
    a: u32,
    #[text(width = 5)]
    #[reverse]
    b: u16,
    #[desc]
    #[text(width = 4)]
    c: u16,
    #[pad(width = 8, fill = 0x2E, align = left)]
    d: &'a str,
    #[pad(width = 6)]
    e: String,
    #[max_len(12)]
    f: String,
    #[desc]
    #[max_len(12)]
    g: String,
    #[pad(width = 6)]
    h: Option<String>,
    #[desc_ts]
    #[text]
    at: i64,
    #[max_len(5)]
    raw: &'a [u8],
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(separator = "_")]
struct Joined {
    #[text(width = 3)]
    a: u32,
    #[max_len(8)]
    b: String,
    #[max_len(8)]
    c: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Forms {
    #[text(format = "%Y%m%d")]
    day: NaiveDate,
    #[text]
    id: Uuid,
    #[text(width = 10, scale = 2)]
    price: Decimal,
    seq: u8,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Reversed {
    #[max_len(12)]
    #[reverse]
    name: String,
    #[max_len(16)]
    #[reverse(segments = ".")]
    host: String,
    #[desc]
    #[pad(width = 5)]
    tag: Option<String>,
    #[max_len(3)]
    bytes: Vec<u8>,
}

/// What a hash prefix learns from its field.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Hashed {
    #[hash_prefix(len = 3)]
    #[max_len(8)]
    tenant: String,
    seq: u16,
}

/// `nasty_text` without the separator.
fn separated_text(max: usize) -> impl Strategy<Value = String> {
    nasty_text(max).prop_map(|s| s.replace('_', "-"))
}

/// The scan's whole key, checked against the encoder's.
fn same<const N: usize>(
    key: Result<rowkey::KeyBuf<N>, rowkey::EncodeError>,
    plan: rowkey::scan::ScanPlan<N>,
    want: &[u8],
) -> Result<(), TestCaseError> {
    let key = key.map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(key.as_ref(), want);
    prop_assert!(plan.contains(want));
    let ranges = plan.ranges();
    prop_assert_eq!(ranges.len(), 1);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn binary_parts_options_and_byte_timestamps(
        a: u32, b: i16, c: bool, d: char, e: Option<u64>, f: Option<i32>, at in 0i64..=i64::MAX,
    ) {
        let k = Binaries { a, b, c, d, e, f, at };
        let want = k.to_vec().unwrap();
        let s = Binaries::scan().a.eq(a).b.eq(b).c.eq(c).d.eq(d).e.eq(e).f.eq(f).at.eq(at);
        same(s.key(), s.plan().unwrap(), &want)?;
        // Ranges are written through the same codecs: a range from the
        // value to itself holds the key, and one just above does not.
        let before_at = Binaries::scan().a.eq(a).b.eq(b).c.eq(c).d.eq(d).e.eq(e).f.eq(f);
        prop_assert!(before_at.at.between(at, at.saturating_add(1)).unwrap().contains(&want) || at == i64::MAX);
        prop_assert!(Binaries::scan().a.range(a..=a).unwrap().contains(&want));
        prop_assert!(Binaries::scan().a.eq(a).b.range(b..=b).unwrap().contains(&want));
        if let Some(b1) = b.checked_add(1) {
            prop_assert!(!Binaries::scan().a.eq(a).b.since(b1).unwrap().contains(&want));
        }
    }

    #[test]
    fn text_padded_escaped_raw_and_digit_timestamps(
        a in 0u32..1_000_000, b in 0u16..10_000, c in 0u16..10_000,
        d in nasty_text(8), e in nasty_text(6), f in nasty_text(12), g in nasty_text(12), h in proptest::option::of(nasty_text(6)),
        at in 0i64..=i64::MAX, raw in proptest::collection::vec(any::<u8>(), 0..=5),
    ) {
        let k = Texts { a, b, c, d: &d, e: e.clone(), f: f.clone(), g: g.clone(), h: h.clone(), at, raw: &raw };
        let s = Texts::scan().a.eq(a).b.eq(b).c.eq(c).d.eq(&d).e.eq(&e).f.eq(&f).g.eq(&g)
            .h.eq(h.clone()).at.eq(at).raw.eq(&raw);
        let want = match k.to_vec() {
            Ok(want) => want,
            // A value the encoder refuses (padding fill at the padded
            // edge) the scan refuses alike: same field, offset and why.
            Err(refused) => {
                prop_assert_eq!(s.key().unwrap_err(), refused);
                prop_assert_eq!(s.plan().unwrap_err(), refused);
                return Ok(());
            }
        };
        same(s.key(), s.plan().unwrap(), &want)?;
        // Prefixes and ranges through the same codecs.
        let a_digits = format!("{a:06}");
        prop_assert!(Texts::scan().a.starts_with(&a_digits[..3]).unwrap().contains(&want));
        let to_e = Texts::scan().a.eq(a).b.eq(b).c.eq(c).d.eq(&d);
        prop_assert!(to_e.e.starts_with(&e).unwrap().contains(&want));
        prop_assert!(to_e.e.range(e.as_str()..=e.as_str()).unwrap().contains(&want));
        let to_f = to_e.e.eq(&e);
        prop_assert!(to_f.f.starts_with(&f).unwrap().contains(&want));
        let top = char::MAX.to_string();
        prop_assert!(to_f.f.between(f.as_str(), top.as_str()).unwrap().contains(&want));
        let to_raw = to_f.f.eq(&f).g.eq(&g).h.eq(h.clone()).at.eq(at);
        prop_assert!(to_raw.raw.starts_with(&raw).unwrap().contains(&want));
        prop_assert!(to_raw.raw.range(&raw[..]..=&raw[..]).unwrap().contains(&want));
        prop_assert!(Texts::scan().a.eq(a).b.eq(b).c.range(c..=c).unwrap().contains(&want));
    }

    #[test]
    fn separator_joined_text(a in 0u32..1000, b in separated_text(8), c in separated_text(8)) {
        let k = Joined { a, b: b.clone(), c: c.clone() };
        let want = k.to_vec().unwrap();
        let s = Joined::scan().a.eq(a).b.eq(&b).c.eq(&c);
        same(s.key(), s.plan().unwrap(), &want)?;
        prop_assert!(Joined::scan().a.eq(a).b.eq(&b).c.starts_with(&c).unwrap().contains(&want));
        prop_assert!(Joined::scan().a.eq(a).b.eq(&b).plan().unwrap().contains(&want));
        // A separator inside a value is an error naming the field.
        let err = Joined::scan().a.eq(a).b.eq("x_y").plan().unwrap_err();
        prop_assert_eq!(err.field(), "b");
    }

    #[test]
    fn date_uuid_and_decimal_text(
        days in 0i32..2_900_000, id: u128, cents in 0i64..1_000_000_000, seq: u8,
    ) {
        let day = NaiveDate::from_num_days_from_ce_opt(days).unwrap();
        let price = Decimal::new(cents, 2);
        let k = Forms { day, id: Uuid::from_u128(id), price, seq };
        let want = k.to_vec().unwrap();
        let s = Forms::scan().day.eq(day).id.eq(Uuid::from_u128(id)).price.eq(price).seq.eq(seq);
        same(s.key(), s.plan().unwrap(), &want)?;
        prop_assert!(Forms::scan().day.range(day..=day).unwrap().contains(&want));
        let to_price = Forms::scan().day.eq(day).id.eq(Uuid::from_u128(id));
        prop_assert!(to_price.price.between(price, Decimal::MAX).unwrap().contains(&want));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn reversed_text_and_descending_options(
        name in nasty_text(12), host in nasty_text(16), tag in proptest::option::of(nasty_text(5)),
        bytes in proptest::collection::vec(any::<u8>(), 0..=3),
    ) {
        let k = Reversed { name: name.clone(), host: host.clone(), tag: tag.clone(), bytes: bytes.clone() };
        let s = Reversed::scan().name.eq(&name).host.eq(&host).tag.eq(tag.clone()).bytes.eq(&bytes);
        let want = match k.to_vec() {
            Ok(want) => want,
            Err(refused) => {
                prop_assert_eq!(s.key().unwrap_err(), refused);
                return Ok(());
            }
        };
        same(s.key(), s.plan().unwrap(), &want)?;
    }

    #[test]
    fn salt_and_hash_prefix_learn_from_their_fields(
        month in 1u32..=12, user in nasty_text(10), rest in nasty_text(12),
        tenant in nasty_text(8), seq: u16,
    ) {
        // The seed ledger: a `group_by` text field (taken as its own
        // type) with a group function, a salted left-padded user.
        let month = format!("2021-{month:02}");
        let k = Ledger { month: month.clone(), user: user.clone(), rest: rest.clone() };
        let s = Ledger::scan().month.eq(month.clone()).user.eq(&user).rest.eq(&rest);
        match k.to_vec() {
            Ok(want) => {
                same(s.key(), s.plan().unwrap(), &want)?;
                // Fixing the salt's inputs reads one bucket: the key's.
                let plan = Ledger::scan().month.eq(month.clone()).user.eq(&user).plan().unwrap();
                prop_assert_eq!(plan.len(), 1);
                prop_assert!(plan.contains(&want));
            }
            Err(refused) => prop_assert_eq!(s.key().unwrap_err(), refused),
        }
        let k = Hashed { tenant: tenant.clone(), seq };
        let want = k.to_vec().unwrap();
        let s = Hashed::scan().tenant.eq(&tenant).seq.eq(seq);
        same(s.key(), s.plan().unwrap(), &want)?;
        prop_assert!(Hashed::scan().tenant.eq(&tenant).plan().unwrap().contains(&want));
    }
}

#[test]
fn a_value_the_codec_refuses_names_the_field_and_offset() {
    let err = Texts::scan().a.eq(1_000_000).plan().unwrap_err();
    assert_eq!((err.field(), err.offset()), ("a", 0));
    let to_d = Texts::scan().a.eq(1).b.eq(2).c.eq(3);
    let err = to_d.d.eq("too long!").plan().unwrap_err();
    assert_eq!((err.field(), err.offset()), ("d", 15));
    // A prefix longer than the field starts no value: an empty plan, as
    // a range bound beyond the field is cut to it.
    assert!(to_d.d.eq("").e.starts_with("1234567").unwrap().is_empty());
    assert!(to_d
        .d
        .eq("")
        .e
        .eq("")
        .f
        .starts_with(&"x".repeat(13))
        .unwrap()
        .is_empty());
    assert!(Texts::scan().a.starts_with("1234567").unwrap().is_empty());
    assert_eq!(Texts::scan().a.starts_with("123456").unwrap().len(), 1);
    // What no value holds at any length is still an error at its byte.
    let err = Texts::scan().a.starts_with("12x4567").unwrap_err();
    assert_eq!((err.field(), err.offset()), ("a", 2));
    let err = to_d.d.eq("").e.starts_with("ab\0").unwrap_err();
    assert_eq!((err.field(), err.offset()), ("e", 23));
}
