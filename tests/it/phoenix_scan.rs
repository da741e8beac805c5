//! Typed scans on Apache Phoenix keys (`#[rowkey(phoenix)]`), checked
//! against brute force: random rows go into a sorted map by their keys,
//! each plan's ranges are read from it (through the fuzzy filter, if
//! any) and merged, and the result must be exactly the rows a filter
//! over the structs selects, in primary-key order (the salt byte
//! ignored), as Phoenix's `SELECT .. WHERE .. ORDER BY` returns them.
//! NULLs: `eq(None)` is `IS NULL`; a range or prefix holds no NULL.
//! Keyset pages of 1, 3 and more rows than match give the same rows.

use proptest::prelude::*;
use rowkey::scan::{merge_sorted, page, ScanPlan};
use rowkey::{DecodeKeyOwned, RowKey};
use rowkey_fixtures::layouts::{PhoenixMetric, PhoenixNullable};
use rust_decimal::Decimal;
use std::ops::{Bound, RangeBounds};

use crate::scan_props::{read, Table};

/// The plan run against the table: ranges read, the fuzzy filter
/// applied, merged in key order after the salt.
fn run<const N: usize>(table: &Table, plan: &ScanPlan<N>) -> Vec<Vec<u8>> {
    let sources: Vec<_> = plan
        .ranges()
        .map(|r| {
            read(table, &r, usize::MAX)
                .into_iter()
                .filter(|k| plan.fuzzy().is_none_or(|f| f.matches(k)))
                .collect::<Vec<_>>()
        })
        .collect();
    merge_sorted(sources, plan.prefix_len(), plan.limit()).collect()
}

fn brute<K: DecodeKeyOwned>(table: &Table, salt: usize, keep: impl Fn(&K) -> bool) -> Vec<Vec<u8>> {
    let mut rows: Vec<Vec<u8>> = table
        .keys()
        .filter(|k| keep(&K::decode(k).expect("stored keys decode")))
        .cloned()
        .collect();
    rows.sort_by(|a, b| a[salt..].cmp(&b[salt..]));
    rows
}

fn check<K: DecodeKeyOwned, const N: usize>(
    table: &Table,
    what: &str,
    plan: Result<ScanPlan<N>, rowkey::EncodeError>,
    keep: impl Fn(&K) -> bool,
) -> Result<(), TestCaseError> {
    let plan = plan.map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
    let want = brute(table, plan.prefix_len(), &keep);
    let got = run(table, &plan);
    prop_assert_eq!(&got, &want, "{}: {:?}", what, plan);
    // Keyset pages resume past each page's last key: the same rows.
    for size in [1, 3, want.len() + 3] {
        let (mut resume, mut paged) = (None::<rowkey::scan::Cursor>, Vec::<Vec<u8>>::new());
        for _ in 0..=want.len() + 1 {
            let p = page(&plan, resume.as_ref(), size, |r, limit| {
                read(table, &r, usize::MAX)
                    .into_iter()
                    .filter(|k| plan.fuzzy().is_none_or(|f| f.matches(k)))
                    .take(limit)
                    .collect::<Vec<_>>()
            })
            .unwrap();
            paged.extend(p.rows);
            match p.next {
                Some(next) => resume = Some(next.to_string().parse().unwrap()),
                None => break,
            }
        }
        prop_assert_eq!(&paged, &want, "{} in pages of {}", what, size);
    }
    Ok(())
}

fn text() -> impl Strategy<Value = Option<String>> {
    prop_oneof![1 => Just(None), 4 => "[ab]{1,3}".prop_map(Some)]
}

fn value() -> impl Strategy<Value = String> + Clone {
    "[ab]{1,3}"
}

fn bound<T: std::fmt::Debug + Clone>(
    v: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = Bound<T>> {
    prop_oneof![
        1 => Just(Bound::Unbounded),
        2 => v.clone().prop_map(Bound::Included),
        2 => v.prop_map(Bound::Excluded),
    ]
}

fn row() -> impl Strategy<Value = PhoenixNullable> {
    (text(), text(), -2..3i32, text()).prop_map(|(a, b, c, d)| PhoenixNullable { a, b, c, d })
}

fn table_of<K: RowKey>(rows: &[K]) -> Table {
    rows.iter()
        .map(|r| (r.to_vec().expect("rows encode"), ()))
        .collect()
}

fn in_range<T: PartialOrd>(v: &T, lo: &Bound<T>, hi: &Bound<T>) -> bool {
    (lo.as_ref(), hi.as_ref()).contains(v)
}

fn text_in_range(v: &Option<String>, lo: &Bound<String>, hi: &Bound<String>) -> bool {
    v.as_ref().is_some_and(|v| in_range(v, lo, hi))
}

fn borrowed(b: &Bound<String>) -> Bound<Option<&str>> {
    match b {
        Bound::Included(v) => Bound::Included(Some(v.as_str())),
        Bound::Excluded(v) => Bound::Excluded(Some(v.as_str())),
        Bound::Unbounded => Bound::Unbounded,
    }
}

fn as_str(b: &Bound<String>) -> Bound<&str> {
    b.as_ref().map(|v| v.as_str())
}

fn starts(v: &Option<String>, p: &str) -> bool {
    v.as_ref().is_some_and(|v| v.starts_with(p))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Equalities (NULL among them) on the leading columns, then a
    /// range, a prefix or nothing on the next, with NULL-able text
    /// ascending and descending, a fixed-width column after them and a
    /// NULL-able last one.
    #[test]
    fn plans_select_what_sql_predicates_select(
        rows in prop::collection::vec(row(), 0..40),
        q in row(),
        (lo, hi) in (bound(value()), bound(value())),
        (clo, chi) in (bound(-3..4i32), bound(-3..4i32)),
        prefix in "[ab]{0,2}",
    ) {
        let t = table_of(&rows);
        let (a, b, d) = (q.a.as_deref(), q.b.as_deref(), q.d.as_deref());
        let (rlo, rhi) = (borrowed(&lo), borrowed(&hi));
        let s = PhoenixNullable::scan();
        type R = PhoenixNullable;
        check(&t, "plan", s.plan(), |_: &R| true)?;
        check(&t, "a = ?", s.a.eq(a).plan(), |r: &R| r.a == q.a)?;
        check(&t, "a in range", s.a.range((rlo, rhi)), |r: &R| text_in_range(&r.a, &lo, &hi))?;
        check(&t, "a like ?%", s.a.starts_with(&prefix), |r: &R| starts(&r.a, &prefix))?;
        let sa = s.a.eq(a);
        check(&t, "a, b = ?", sa.b.eq(b).plan(), |r: &R| r.a == q.a && r.b == q.b)?;
        check(&t, "a, b in range", sa.b.range((rlo, rhi)), |r: &R| {
            r.a == q.a && text_in_range(&r.b, &lo, &hi)
        })?;
        check(&t, "a, b like ?%", sa.b.starts_with(&prefix), |r: &R| {
            r.a == q.a && starts(&r.b, &prefix)
        })?;
        let sb = sa.b.eq(b);
        check(&t, "a, b, c in range", sb.c.range((clo, chi)), |r: &R| {
            r.a == q.a && r.b == q.b && in_range(&r.c, &clo, &chi)
        })?;
        let sc = sb.c.eq(q.c);
        check(&t, "a, b, c = ?", sc.plan(), |r: &R| r.a == q.a && r.b == q.b && r.c == q.c)?;
        let same = |r: &R| r.a == q.a && r.b == q.b && r.c == q.c;
        check(&t, "a, b, c, d in range", sc.d.range((rlo, rhi)), |r: &R| {
            same(r) && text_in_range(&r.d, &lo, &hi)
        })?;
        check(&t, "a, b, c, d like ?%", sc.d.starts_with(&prefix), |r: &R| {
            same(r) && starts(&r.d, &prefix)
        })?;
        check(&t, "the whole key", sc.d.eq(d).plan(), |r: &R| *r == q)?;
        let key = sc.d.eq(d).key()?;
        prop_assert_eq!(key.as_ref(), &q.to_vec()?[..]);
    }

    /// IN-lists (NULL among the values) and a free fixed-width column
    /// followed by a range or an exact DESC-free value.
    #[test]
    fn in_lists_and_free_columns(
        rows in prop::collection::vec(row(), 0..40),
        q in row(),
        list in prop::collection::vec(text(), 0..4),
        (lo, hi) in (bound(value()), bound(value())),
    ) {
        let t = table_of(&rows);
        let (a, b) = (q.a.as_deref(), q.b.as_deref());
        let (rlo, rhi) = (borrowed(&lo), borrowed(&hi));
        type R = PhoenixNullable;
        let s = PhoenixNullable::scan();
        check(&t, "a in (..), b = ?", s.a.is_in(list.iter().map(|v| v.as_deref())).b.eq(b).plan(), |r: &R| {
            list.contains(&r.a) && r.b == q.b
        })?;
        check(&t, "a in (..), b in range", s.a.is_in(list.iter().map(|v| v.as_deref())).b.range((rlo, rhi)), |r: &R| {
            list.contains(&r.a) && text_in_range(&r.b, &lo, &hi)
        })?;
        let free = s.a.eq(a).b.eq(b).c.any();
        check(&t, "a, b = ?, any c", free.plan(), |r: &R| r.a == q.a && r.b == q.b)?;
        check(&t, "a, b = ?, any c, d in range", free.d.range((rlo, rhi)), |r: &R| {
            r.a == q.a && r.b == q.b && text_in_range(&r.d, &lo, &hi)
        })?;
        // An ascending VARCHAR after a free column: its end is a separator
        // the pattern cannot hold.
        prop_assert!(free.d.eq(Some("a")).plan().is_err());
        prop_assert!(free.d.eq(None).plan().is_err());
    }

    /// A salted key: the buckets merged in key order after the salt byte
    /// (Phoenix's ORDER BY on the primary key), a DESC BIGINT's ranges in
    /// value order.
    #[test]
    fn salted_buckets_merge_in_primary_key_order(
        rows in prop::collection::vec(("[ab]{1,3}", 0..4i32, -3..4i64), 0..60),
        host in "[ab]{1,3}",
        metrics in prop::collection::vec(0..4i32, 0..3),
        (mlo, mhi) in (bound(0..4i32), bound(0..4i32)),
        (tlo, thi) in (bound(-3..4i64), bound(-3..4i64)),
        prefix in "[ab]{0,2}",
        (hlo, hhi) in (bound(value()), bound(value())),
    ) {
        let rows: Vec<PhoenixMetric> = rows
            .into_iter()
            .map(|(host, metric, at)| PhoenixMetric { host, metric, at })
            .collect();
        let t = table_of(&rows);
        type R = PhoenixMetric;
        let s = PhoenixMetric::scan();
        check(&t, "all", s.plan(), |_: &R| true)?;
        check(&t, "host like ?%", s.host.starts_with(&prefix), |r: &R| r.host.starts_with(&prefix))?;
        check(&t, "host in range", s.host.range((as_str(&hlo), as_str(&hhi))), |r: &R| {
            in_range(&r.host, &hlo, &hhi)
        })?;
        let h = s.host.eq(&host);
        check(&t, "host = ?, metric in range", h.metric.range((mlo, mhi)), |r: &R| {
            r.host == host && in_range(&r.metric, &mlo, &mhi)
        })?;
        check(&t, "host = ?, metric in (..)", h.metric.is_in(metrics.iter()).plan(), |r: &R| {
            r.host == host && metrics.contains(&r.metric)
        })?;
        check(&t, "host = ?, metric = 1, at in range", h.metric.eq(1).at.range((tlo, thi)), |r: &R| {
            r.host == host && r.metric == 1 && in_range(&r.at, &tlo, &thi)
        })?;
        check(&t, "host = ?, any metric, at in range", s.host.eq(&host).metric.any().at.range((tlo, thi)), |r: &R| {
            r.host == host && in_range(&r.at, &tlo, &thi)
        })?;
        let one = PhoenixMetric { host: host.clone(), metric: 1, at: 2 };
        let point = h.metric.eq(1).at.eq(2);
        let key = point.key()?;
        prop_assert_eq!(key.as_ref(), &one.to_vec()?[..]);
        prop_assert_eq!(point.plan()?.len(), 1);
    }
}

/// `CHAR` and `DECIMAL` (variable-length, ascending and `DESC`) columns,
/// and a `DESC` NULL-able `VARCHAR` last.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct Ledger {
    #[phoenix(char(3))]
    code: String,
    #[phoenix(decimal(10, 2))]
    amount: Decimal,
    #[desc]
    #[phoenix(decimal(6, 1))]
    level: Decimal,
    #[desc]
    #[max_len(8)]
    tag: Option<String>,
}

fn decimal(max: i64, scale: u32) -> impl Strategy<Value = Decimal> + Clone {
    (-max..max, 0..=scale).prop_map(|(m, s)| Decimal::new(m, s).normalize())
}

fn ledger() -> impl Strategy<Value = Ledger> {
    (value(), decimal(300, 2), decimal(30, 1), text()).prop_map(|(code, amount, level, tag)| {
        Ledger {
            code,
            amount,
            level,
            tag,
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn char_and_decimal_columns_and_a_desc_last_text(
        rows in prop::collection::vec(ledger(), 0..40),
        q in ledger(),
        (clo, chi) in (bound(value()), bound(value())),
        (alo, ahi) in (bound(decimal(300, 2)), bound(decimal(300, 2))),
        (llo, lhi) in (bound(decimal(30, 1)), bound(decimal(30, 1))),
        (tlo, thi) in (bound(value()), bound(value())),
        prefix in "[ab]{0,2}",
    ) {
        let t = table_of(&rows);
        type R = Ledger;
        let s = Ledger::scan();
        check(&t, "code like ?%", s.code.starts_with(&prefix), |r: &R| r.code.starts_with(&prefix))?;
        check(&t, "code in range", s.code.range((as_str(&clo), as_str(&chi))), |r: &R| in_range(&r.code, &clo, &chi))?;
        let c = s.code.eq(&q.code);
        check(&t, "code = ?, amount in range", c.amount.range((alo, ahi)), |r: &R| {
            r.code == q.code && in_range(&r.amount, &alo, &ahi)
        })?;
        let a = c.amount.eq(q.amount);
        check(&t, "code, amount = ?, level in range", a.level.range((llo, lhi)), |r: &R| {
            r.code == q.code && r.amount == q.amount && in_range(&r.level, &llo, &lhi)
        })?;
        let l = a.level.eq(q.level);
        let same = |r: &R| r.code == q.code && r.amount == q.amount && r.level == q.level;
        check(&t, "code, amount, level = ?", l.plan(), same)?;
        check(&t, ".., tag in range", l.tag.range((borrowed(&tlo), borrowed(&thi))), |r: &R| {
            same(r) && text_in_range(&r.tag, &tlo, &thi)
        })?;
        check(&t, ".., tag like ?%", l.tag.starts_with(&prefix), |r: &R| same(r) && starts(&r.tag, &prefix))?;
        check(&t, ".., tag = ?", l.tag.eq(q.tag.as_deref()).plan(), |r: &R| *r == q)?;
        check(&t, "code = ?", s.code.eq(&q.code).plan(), |r: &R| r.code == q.code)?;
    }
}

/// Two NULL-able columns: both NULL is no key Phoenix stores.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct TwoTexts {
    #[max_len(8)]
    a: Option<String>,
    #[max_len(8)]
    b: Option<String>,
}

#[test]
fn every_column_null_is_no_key() {
    let s = TwoTexts::scan();
    let none = s.a.eq(None).b.eq(None);
    assert!(none.plan().unwrap().is_empty());
    let e = none.key().unwrap_err();
    assert!(e.to_string().contains("every key column is NULL"), "{e}");
    let key = TwoTexts {
        a: None,
        b: Some("x".into()),
    }
    .to_vec()
    .unwrap();
    let plan = s.a.eq(None).b.is_in([None, Some("x")]).plan().unwrap();
    assert!(plan.contains(&key) && plan.len() == 1, "{plan:?}");
}

/// What a Phoenix column's steps refuse, each with the field named.
#[test]
fn refusals_name_the_field() {
    let s = PhoenixNullable::scan();
    let e =
        s.a.range((Bound::Included(None), Bound::Unbounded))
            .unwrap_err();
    assert_eq!(e.field(), "a");
    assert!(e.to_string().contains("not NULL"), "{e}");
    let e = s.a.eq(Some("")).plan().unwrap_err();
    assert!(e.to_string().contains("empty VARCHAR"), "{e}");
    let e = s.a.eq(Some("x\0y")).plan().unwrap_err();
    assert!(e.to_string().contains("U+0000"), "{e}");
    let e = Ledger::scan().code.starts_with("a ").unwrap_err();
    assert!(e.to_string().contains("ending with a space"), "{e}");
    let e = Ledger::scan()
        .code
        .eq("ab")
        .amount
        .eq(Decimal::ONE)
        .level
        .eq(Decimal::ONE)
        .tag
        .eq(Some("a\0"))
        .plan()
        .unwrap_err();
    assert!(e.to_string().contains("U+0000"), "{e}");
    // Longer than the column holds: no value starts with it.
    assert!(s.a.starts_with(&"x".repeat(17)).unwrap().is_empty());
}

#[test]
fn explain_says_why_a_phoenix_plan_reads_every_bucket() {
    let plan = PhoenixMetric::scan()
        .host
        .eq("web-01")
        .metric
        .eq(7)
        .plan()
        .unwrap();
    assert_eq!(
        plan.explain().to_string(),
        "16 ranges, one in each of 16 salt buckets\n\
         Phoenix's salt hashes the whole key: a query reads 1 bucket instead of 16 only when it \
         fixes every key column (eq, or is_in: 1 bucket a combination)\n\
         rows merged across buckets in logical key order"
    );
    let point = PhoenixMetric::scan()
        .host
        .eq("web-01")
        .metric
        .eq(7)
        .at
        .eq(1)
        .plan()
        .unwrap();
    let key = PhoenixMetric {
        host: "web-01".into(),
        metric: 7,
        at: 1,
    }
    .to_vec()
    .unwrap();
    assert_eq!(
        point.explain().to_string(),
        format!("1 range, in salt bucket {} of 16", key[0])
    );
}
