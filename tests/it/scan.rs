//! Partial-row queries on the seed layouts: the ranges the typed builders
//! produce, printed as the HBase shell lines a person would run.

use rowkey::RowKey;
use rowkey_fixtures::SaltedCall;

/// The spending ledger (bucket groups by month): the bucket is
/// `(month - 1) * 10 + hash(user + month) % 10`, so one month lives in
/// ten known buckets.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Ledger<'a> {
    #[salt(buckets = 120, group_by = month, range = 1..=12, per_group = 10)]
    #[text(width = 2)]
    month: u8,
    #[salt]
    #[pad(width = 10, fill = 0x01, align = left)]
    user: &'a str,
    #[desc_ts]
    at_ms: i64,
}

#[test]
fn ledger_queries_touch_only_their_buckets() {
    let one_user = Ledger::scan()
        .month
        .eq(12)
        .user
        .eq("zhangsan")
        .plan()
        .unwrap();
    assert_eq!(one_user.len(), 1);
    let december = Ledger::scan().month.eq(12).plan().unwrap();
    assert_eq!(december.len(), 10);
    assert_eq!(december.buckets(), 110..120);
    let everything = Ledger::scan().plan().unwrap();
    assert_eq!(everything.len(), 120);

    let row = Ledger {
        month: 12,
        user: "zhangsan",
        at_ms: 1_638_316_800_000,
    };
    let key = row.to_key().unwrap();
    assert!(one_user.contains(&key));
    assert!(december.contains(&key));
    let point = Ledger::scan()
        .month
        .eq(12)
        .user
        .eq("zhangsan")
        .at_ms
        .eq(1_638_316_800_000);
    assert_eq!(&*point.key().unwrap(), &*key);

    println!("user zhangsan in December ({} range):", one_user.len());
    print!("{}", one_user.hbase_shell("spend"));
    println!("everyone in December ({} ranges):", december.len());
    print!("{}", december.hbase_shell("spend"));
}

#[test]
fn call_records_by_phone_and_month() {
    // The bucket needs the whole time (the seed's formula), so a month of
    // one phone scans all six buckets.
    let plan = SaltedCall::scan()
        .tel
        .eq(13812345678)
        .time
        .starts_with("202112")
        .unwrap();
    assert_eq!(plan.len(), 6);
    let r = plan.range(2).unwrap();
    assert!(plan.range(6).is_none());
    assert_eq!(r.start(), b"2_13812345678_202112");
    assert_eq!(r.stop(), Some(&b"2_13812345678_202113"[..]));
    let key = SaltedCall {
        tel: 13812345678,
        time: 20211201120000,
    }
    .to_key()
    .unwrap();
    assert!(plan.contains(&key));
    assert!(!plan.contains(
        &SaltedCall {
            tel: 13812345678,
            time: 20220101000000
        }
        .to_key()
        .unwrap()
    ));
}

#[test]
fn time_windows_on_reversed_timestamps() {
    let day = 86_400_000i64;
    let t0 = 1_638_316_800_000i64;
    let scan = Ledger::scan().month.eq(12).user.eq("zhangsan");
    let plan = scan.at_ms.between(t0, t0 + day).unwrap();
    let key = |at_ms| {
        Ledger {
            month: 12,
            user: "zhangsan",
            at_ms,
        }
        .to_key()
        .unwrap()
    };
    assert!(plan.contains(&key(t0)));
    assert!(plan.contains(&key(t0 + day - 1)));
    assert!(!plan.contains(&key(t0 + day)));
    assert!(!plan.contains(&key(t0 - 1)));
    let since = scan.at_ms.since(t0).unwrap();
    assert!(
        since.contains(&key(i64::MAX)) && since.contains(&key(t0)) && !since.contains(&key(t0 - 1))
    );
    let until = scan.at_ms.until(t0).unwrap();
    assert!(until.contains(&key(0)) && !until.contains(&key(t0)));
    assert!(scan.at_ms.until(0).unwrap().is_empty());
    assert!(scan.at_ms.between(5, 5).unwrap().is_empty());
    assert_eq!(scan.at_ms.latest(1).unwrap().limit(), Some(1));
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Named {
    #[max_len(8)]
    name: String,
}

#[test]
fn text_ranges_take_str_ranges_and_empty_stops_match_nothing() {
    let plan = Named::scan().name.range("a".."b").unwrap();
    let key = |n: &str| Named { name: n.into() }.to_key().unwrap();
    assert!(plan.contains(&key("a")) && plan.contains(&key("azz")) && !plan.contains(&key("b")));
    assert!(Named::scan()
        .name
        .range("b"..="b")
        .unwrap()
        .contains(&key("b")));
    assert!(!Named::scan()
        .name
        .range("b"..="b")
        .unwrap()
        .contains(&key("b0")));
    // Nothing sorts before the empty name.
    assert!(Named::scan().name.until("").unwrap().is_empty());
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Asc {
    #[salt(buckets = 4, binary)]
    v: u8,
    w: u8,
}

#[test]
fn nothing_follows_the_largest_value_in_a_salted_key() {
    use std::ops::Bound::{Excluded, Unbounded};
    assert!(Asc::scan()
        .v
        .range((Excluded(255), Unbounded))
        .unwrap()
        .is_empty());
    assert!(Asc::scan()
        .v
        .eq(255)
        .w
        .range((Excluded(255), Unbounded))
        .unwrap()
        .is_empty());
    // Below the smallest value: no key, though the byte range is not empty.
    let below = Asc::scan().v.range((Unbounded, Excluded(0))).unwrap();
    assert!(!below.contains(&Asc { v: 0, w: 0 }.to_key().unwrap()));
    let all_but_max = Asc::scan().v.range(..255).unwrap();
    assert!(all_but_max.contains(&Asc { v: 254, w: 255 }.to_key().unwrap()));
    assert!(!all_but_max.contains(&Asc { v: 255, w: 0 }.to_key().unwrap()));
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Yearly {
    #[text(width = 4)]
    year: i32,
    #[max_len(8)]
    name: String,
}

#[test]
fn text_bounds_beyond_the_field_mean_above_or_below_every_value() {
    let key = |year| {
        Yearly {
            year,
            name: "x".into(),
        }
        .to_key()
        .unwrap()
    };
    let all = Yearly::scan().year.range(-5..10_000).unwrap();
    assert!(all.contains(&key(0)) && all.contains(&key(9999)));
    assert!(Yearly::scan().year.range(10_000..).unwrap().is_empty());
    assert!(Yearly::scan().year.until(-1).unwrap().is_empty());
    // A bound the field cannot hold is not an error; a value to set is.
    assert!(Yearly::scan().year.eq(10_000).plan().is_err());
}

/// Short names: an escaped last-but-one field and a padded one, so bounds
/// longer than the field are easy to write.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Short {
    #[max_len(3)]
    code: String,
    #[pad(width = 3)]
    tag: String,
    seq: u8,
}

/// A bound longer than a field can hold keeps exactly the values a
/// brute-force comparison keeps (it is cut, not "above every value":
/// `abd` is above `abcd`); bounds given in the wrong order give an empty
/// plan, as Rust's `5..3` is an empty range.
#[test]
fn bounds_longer_than_the_field_and_reversed_bounds() {
    let alphabet = ["", "a", "ab", "abc", "abd", "b", "b\u{1}", "zz"];
    let rows: Vec<Short> = alphabet
        .iter()
        .flat_map(|c| {
            alphabet
                .iter()
                .filter(|t| !t.is_empty())
                .map(move |t| Short {
                    code: c.to_string(),
                    tag: t.to_string(),
                    seq: 1,
                })
        })
        .collect();
    let bounds = ["abcd", "abc\u{0}", "ab\u{FF}x", "a", "zzzz", ""];
    for lo in bounds {
        for hi in bounds {
            let plan = Short::scan().code.range(lo..hi).unwrap();
            for r in &rows {
                let want = r.code.as_str() >= lo && r.code.as_str() < hi;
                assert_eq!(
                    plan.contains(&r.to_key().unwrap()),
                    want,
                    "code {lo:?}..{hi:?} {r:?}"
                );
            }
            let plan = Short::scan().code.range(lo..=hi).unwrap();
            for r in &rows {
                let want = r.code.as_str() >= lo && r.code.as_str() <= hi;
                assert_eq!(
                    plan.contains(&r.to_key().unwrap()),
                    want,
                    "code {lo:?}..={hi:?} {r:?}"
                );
            }
            let fixed = Short::scan().code.eq("ab");
            let plan = fixed.tag.range(lo..hi).unwrap();
            for r in rows.iter().filter(|r| r.code == "ab") {
                let want = r.tag.as_str() >= lo && r.tag.as_str() < hi;
                assert_eq!(
                    plan.contains(&r.to_key().unwrap()),
                    want,
                    "tag {lo:?}..{hi:?} {r:?}"
                );
            }
        }
    }
    // Reversed bounds: documented empty, never an error or a wide scan.
    assert!(Short::scan().code.range("b".."a").unwrap().is_empty());
    assert!(Short::scan()
        .code
        .eq("ab")
        .tag
        .between("zz", "a")
        .unwrap()
        .is_empty());
}

/// Key fields named like the builder's own methods and its private field:
/// fields and methods live in separate namespaces, and a field is reached
/// through `Deref` past `TypedScan`'s own (private) field, so nothing
/// clashes.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Clashing {
    #[salt(buckets = 4)]
    plan: u32,
    #[max_len(8)]
    key: String,
    in_bucket: u16,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct NamedLikeTheWrapper {
    state: u32,
    with_max_ranges: u8,
    clone: u8,
}

#[test]
fn fields_named_like_the_wrappers_private_field_and_methods_scan() {
    let row = NamedLikeTheWrapper {
        state: 5,
        with_max_ranges: 6,
        clone: 7,
    };
    let stored = row.to_key().unwrap();
    let scan = NamedLikeTheWrapper::scan().with_max_ranges(4);
    let point = scan.state.eq(5).with_max_ranges.eq(6).clone.eq(7);
    assert_eq!(&*point.clone().key().unwrap(), &*stored);
    let many = scan
        .state
        .is_in([1, 5])
        .with_max_ranges
        .is_in([6, 7])
        .plan()
        .unwrap();
    assert_eq!(
        many.len(),
        2,
        "touching ranges are joined: (1,6)(1,7) and (5,6)(5,7)"
    );
    assert!(many.contains(&stored));
    let err = scan
        .state
        .is_in([1, 2, 3])
        .with_max_ranges
        .is_in([1, 3])
        .plan()
        .unwrap_err();
    assert!(matches!(
        err.kind(),
        rowkey::EncodeErrorKind::TooManyRanges { max: 4, .. }
    ));
}

#[test]
fn fields_named_plan_key_and_in_bucket_derive_and_scan() {
    let row = Clashing {
        plan: 7,
        key: "k".into(),
        in_bucket: 3,
    };
    let stored = row.to_key().unwrap();
    let by_plan = Clashing::scan().plan.eq(7).plan().unwrap();
    assert_eq!(by_plan.len(), 1, "the salt input is fixed: one bucket");
    assert!(by_plan.contains(&stored));
    let point = Clashing::scan().plan.eq(7).key.eq("k").in_bucket.eq(3);
    assert_eq!(&*point.key().unwrap(), &*stored);
    assert!(point.plan().unwrap().contains(&stored));
    let prefix = Clashing::scan().plan.eq(7).key.starts_with("").unwrap();
    assert!(prefix.contains(&stored));
    assert!(Clashing::scan().in_bucket(2).plan.eq(7).plan().is_ok());
    assert_eq!(Clashing::decode(&stored).unwrap(), row);
}

#[test]
fn a_value_the_field_cannot_hold_names_the_field() {
    let err = Clashing::scan()
        .plan
        .eq(1)
        .key
        .eq("far too long")
        .plan()
        .unwrap_err();
    assert_eq!(err.field(), "key");
    assert_eq!(err.key(), "Clashing");
}
