//! Property tests over derived keys: for several layouts covering every
//! codec, `decode(encode(x)) == x`, distinct values never share a key,
//! byte order equals value order where the layout promises it, and no
//! byte string makes decode panic.

use proptest::prelude::*;
use rowkey::{KeyPart, Order, RowKey};
use std::cmp::Reverse;

#[derive(KeyPart, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Call,
    Sms,
    Data,
}

#[derive(KeyPart, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct UserId(u32);

/// Every binary part, escaped text in the middle, raw bytes last.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Mixed {
    a: i32,
    #[text]
    b: u64,
    #[max_len(12)]
    name: String,
    opt: Option<u16>,
    flag: bool,
    c: char,
    kind: Kind,
    user: UserId,
    id: [u8; 3],
    #[max_len(8)]
    tail: Vec<u8>,
}

fn mixed_order(m: &Mixed) -> impl Ord {
    (
        m.a,
        m.b,
        m.name.clone(),
        m.opt,
        m.flag,
        m.c,
        (m.kind, m.user, m.id, m.tail.clone()),
    )
}

/// Descending fields of every framing.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Desc {
    #[desc]
    a: i64,
    #[desc]
    #[max_len(6)]
    s: String,
    #[desc_ts]
    at: i64,
    #[desc]
    #[text(width = 5)]
    n: u16,
    #[desc]
    o: Option<u8>,
    #[desc]
    #[max_len(6)]
    last: Vec<u8>,
}

fn desc_order(d: &Desc) -> impl Ord {
    (
        Reverse(d.a),
        Reverse(d.s.clone()),
        Reverse(d.at),
        Reverse(d.n),
        Reverse(d.o),
        Reverse(d.last.clone()),
    )
}

/// Optional text and bytes in every position, right padding with 0x00.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Optional {
    #[max_len(5)]
    a: Option<String>,
    #[pad(width = 4)]
    p: Option<Vec<u8>>,
    #[desc_ts]
    #[text]
    t: Option<u64>,
    #[max_len(5)]
    z: Option<Vec<u8>>,
}

fn optional_order(o: &Optional) -> impl Ord {
    (o.a.clone(), o.p.clone(), o.t.map(Reverse), o.z.clone())
}

/// Text keys joined by a separator (the call-record style).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(separator = "|")]
struct Joined {
    #[text(width = 3)]
    bucket: u16,
    #[max_len(8)]
    user: String,
    #[pad(width = 4, fill = b'.', align = left)]
    code: String,
    #[desc_ts]
    #[text]
    at: u64,
    #[max_len(6)]
    rest: String,
}

/// Reversals: no order, but roundtrip and uniqueness.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Reversed {
    #[text(width = 11)]
    #[reverse]
    tel: u64,
    #[max_len(20)]
    #[reverse(segments = ".")]
    host: String,
    #[max_len(10)]
    #[reverse]
    word: String,
    #[pad(width = 6, fill = b'_', align = left)]
    #[reverse]
    code: Vec<u8>,
}

/// Borrowed fields decode without copying.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Borrowed<'a> {
    #[pad(width = 10, fill = 0x01, align = left)]
    user: &'a str,
    #[pad(width = 4)]
    tag: &'a [u8],
    #[max_len(16)]
    note: std::borrow::Cow<'a, str>,
    #[max_len(16)]
    path: &'a str,
}

fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    // Few distinct bytes, the dangerous ones included, so that prefixes,
    // escapes and near-collisions come up often.
    prop::collection::vec(
        prop::sample::select(vec![0u8, 1, 2, b'a', 0xFE, 0xFF]),
        0..=max,
    )
}

fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec!['\0', 'a', 'b', 'é', '中', '.', '|']),
        0..=max,
    )
    .prop_map(|v| v.into_iter().collect())
    .prop_filter("fits max bytes", move |s: &String| s.len() <= max)
}

fn mixed() -> impl Strategy<Value = Mixed> {
    (
        any::<i32>(),
        any::<u64>(),
        text(12),
        any::<Option<u16>>(),
        any::<bool>(),
        any::<char>(),
        prop::sample::select(vec![Kind::Call, Kind::Sms, Kind::Data]),
        any::<u32>().prop_map(UserId),
        any::<[u8; 3]>(),
        bytes(8),
    )
        .prop_map(|(a, b, name, opt, flag, c, kind, user, id, tail)| Mixed {
            a,
            b,
            name,
            opt,
            flag,
            c,
            kind,
            user,
            id,
            tail,
        })
}

fn desc() -> impl Strategy<Value = Desc> {
    (
        -3i64..3,
        text(6),
        prop_oneof![Just(0i64), Just(i64::MAX), 0..=i64::MAX],
        prop_oneof![Just(0u16), Just(9999), any::<u16>()],
        any::<Option<u8>>(),
        bytes(6),
    )
        .prop_map(|(a, s, at, n, o, last)| Desc {
            a,
            s,
            at,
            n,
            o,
            last,
        })
}

fn optional() -> impl Strategy<Value = Optional> {
    (
        prop::option::of(text(5)),
        prop::option::of(
            prop::collection::vec(prop::sample::select(vec![0u8, 1, b'a', 0xFF]), 0..=4)
                .prop_filter("no trailing fill", |v| v.last() != Some(&0)),
        ),
        prop::option::of(0u64..=i64::MAX as u64),
        prop::option::of(bytes(5)),
    )
        .prop_map(|(a, p, t, z)| Optional { a, p, t, z })
}

fn no_sep(max: usize) -> impl Strategy<Value = String> {
    text(max).prop_filter("no separator", |s| !s.contains('|'))
}

fn joined() -> impl Strategy<Value = Joined> {
    (
        0u16..1000,
        no_sep(8),
        "[a-z]{0,4}".prop_filter("no leading fill", |s| !s.starts_with('.')),
        0u64..=i64::MAX as u64,
        no_sep(6),
    )
        .prop_map(|(bucket, user, code, at, rest)| Joined {
            bucket,
            user,
            code,
            at,
            rest,
        })
}

fn reversed() -> impl Strategy<Value = Reversed> {
    (
        0u64..100_000_000_000,
        text(20),
        text(10),
        prop::collection::vec(prop::sample::select(vec![b'_', b'a', 0, 0xFF]), 0..=6)
            .prop_filter("no fill at the stored start", |v| v.last() != Some(&b'_')),
    )
        .prop_map(|(tel, host, word, code)| Reversed {
            tel,
            host,
            word,
            code,
        })
}

/// Checks roundtrip, uniqueness and (when `order` is given) order for a pair.
macro_rules! check_pair {
    ($ty:ty, $a:expr, $b:expr $(, $order:expr)?) => {{
        let (a, b) = ($a, $b);
        let (ka, kb) = (a.to_key().unwrap(), b.to_key().unwrap());
        prop_assert_eq!(ka.len(), a.encoded_len());
        prop_assert!(ka.len() <= <$ty as RowKey>::MAX_LEN);
        prop_assert_eq!(&<$ty>::decode(&ka).unwrap(), &a);
        prop_assert_eq!(&<$ty>::decode(&kb).unwrap(), &b);
        prop_assert_eq!(ka == kb, a == b, "collision or instability: {:?} / {:?}", ka, kb);
        $(
            let order = $order;
            prop_assert_eq!(ka.cmp(&kb), order(&a).cmp(&order(&b)), "order: {:?} vs {:?}", a, b);
        )?
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn mixed_roundtrip_unique_ordered(a in mixed(), b in mixed()) {
        check_pair!(Mixed, a, b, mixed_order);
    }

    #[test]
    fn desc_roundtrip_unique_reverse_ordered(a in desc(), b in desc()) {
        check_pair!(Desc, a, b, desc_order);
    }

    #[test]
    fn optional_roundtrip_unique_ordered(a in optional(), b in optional()) {
        check_pair!(Optional, a, b, optional_order);
    }

    #[test]
    fn joined_roundtrip_unique(a in joined(), b in joined()) {
        check_pair!(Joined, a, b);
    }

    #[test]
    fn reversed_roundtrip_unique(a in reversed(), b in reversed()) {
        check_pair!(Reversed, a, b);
    }

    #[test]
    fn near_values_stay_distinct(a in mixed(), cut in 0usize..12) {
        // Moving bytes between the escaped field and the raw last field
        // must change the key.
        let mut b = a.clone();
        let split = cut.min(b.name.len());
        if b.name.is_char_boundary(split) {
            let moved = b.name.split_off(split);
            b.tail.splice(0..0, moved.into_bytes());
            b.tail.truncate(8);
            if b != a {
                prop_assert_ne!(a.to_key().unwrap(), b.to_key().unwrap());
            }
        }
    }

    #[test]
    fn borrowed_roundtrip_points_into_the_key(
        user in "[a-z]{1,10}",
        tag in prop::collection::vec(1u8..=255, 0..=4),
        note in no_sep(16),
        path in no_sep(16),
    ) {
        let v = Borrowed { user: &user, tag: &tag, note: note.as_str().into(), path: &path };
        let key = v.to_key().unwrap();
        let back = Borrowed::decode(&key).unwrap();
        prop_assert_eq!(&back, &v);
        let range = key.as_ptr_range();
        prop_assert!(range.contains(&back.user.as_ptr()));
        prop_assert!(back.path.is_empty() || range.contains(&back.path.as_ptr()));
    }

    #[test]
    fn arbitrary_bytes_never_panic(raw in prop::collection::vec(any::<u8>(), 0..64)) {
        let _ = Mixed::decode(&raw);
        let _ = Desc::decode(&raw);
        let _ = Optional::decode(&raw);
        let _ = Joined::decode(&raw);
        let _ = Reversed::decode(&raw);
        let _ = Borrowed::decode(&raw);
    }

    #[test]
    fn mutated_keys_never_panic(a in mixed(), b in desc(), at in any::<prop::sample::Index>(), byte: u8, cut in any::<prop::sample::Index>()) {
        for mut key in [a.to_vec().unwrap(), b.to_vec().unwrap()] {
            let i = at.index(key.len());
            key[i] = byte;
            let _ = Mixed::decode(&key);
            let _ = Desc::decode(&key);
            key.truncate(cut.index(key.len() + 1));
            let _ = Mixed::decode(&key);
            let _ = Desc::decode(&key);
        }
    }

    #[test]
    fn trailing_bytes_are_an_error(a in mixed(), extra in prop::collection::vec(any::<u8>(), 1..4)) {
        // The last field is raw, so extra bytes become part of it unless
        // they overflow its max_len; a fixed-width layout rejects them.
        let d = Desc { a: 1, s: "x".into(), at: 5, n: 7, o: None, last: vec![1] };
        let mut key = d.to_vec().unwrap();
        key.extend_from_slice(&extra);
        prop_assert!(Desc::decode(&key).is_err());
        let _ = a;
    }
}

#[test]
fn layouts_state_their_order() {
    let m = Mixed::layout();
    assert!(m.fields.iter().all(|f| f.order == Order::Ascending));
    assert_eq!(m.fields[0].offset, Some(0));
    assert_eq!(m.fields[1].offset, Some(4));
    assert_eq!(m.fields[2].offset, Some(24));
    assert_eq!(m.fields[3].offset, None);
    let d = Desc::layout();
    assert!(d.fields.iter().all(|f| f.order == Order::Descending));
    let r = Reversed::layout();
    assert!(r.fields.iter().all(|f| f.order == Order::Unordered));
    assert_eq!(Mixed::FIXED_LEN, None);
    assert_eq!(
        Mixed::MAX_LEN,
        4 + 20 + (2 * 12 + 2) + 3 + 1 + 4 + 1 + 4 + 3 + 8
    );
}
