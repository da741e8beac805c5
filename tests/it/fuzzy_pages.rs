//! `scan::page` and `scan::offset_limit` on plans with a fuzzy key
//! (`.field.any()`): the pager keeps only the rows that match, reading a
//! range again after a batch of non-matching rows, so pages hold exactly
//! the rows brute force selects, whatever the page size, forward and
//! reversed, with a reader that honours its row limit; and how such a plan
//! renders for `cbt`.

use proptest::prelude::*;
use rowkey::scan::{offset_limit, page, Cursor, ScanPlan};
use rowkey::RowKey;
use rowkey_fixtures::brute::{fuzzy_plan_keys, read_range, Table};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Ev {
    #[salt(buckets = 4, binary)]
    user: u32,
    status: u8,
    seq: u16,
}

const N: usize = Ev::MAX_LEN + 1;

/// Every page of `plan`, `size` rows each.
fn pages(table: &Table, plan: &ScanPlan<N>, size: usize) -> Vec<Vec<u8>> {
    let read = |r, limit| read_range(table, &r, limit, plan.is_reversed());
    let (mut out, mut resume) = (Vec::new(), None::<Cursor>);
    for _ in 0..=table.len() + 1 {
        let p = page(plan, resume.as_ref(), size, read).unwrap();
        assert!(p.rows.len() <= size);
        out.extend(p.rows);
        match p.next {
            Some(next) => resume = Some(next),
            None => return out,
        }
    }
    panic!("paging does not advance")
}

/// The issue's reproduction: `scan::page` returned rows with status 1.
#[test]
fn pages_of_an_any_plan_hold_only_matching_rows() {
    let mut table = Table::new();
    for user in 0..20 {
        for status in 1..=3 {
            table.insert(
                Ev {
                    user,
                    status,
                    seq: 1,
                }
                .to_vec()
                .unwrap(),
            );
        }
    }
    let plan = Ev::scan().user.any().status.eq(2).plan().unwrap();
    let read = |r, limit| read_range(&table, &r, limit, false);
    let rows = page(&plan, None, 100, read).unwrap().rows;
    let want = fuzzy_plan_keys(&table, &plan);
    assert_eq!(want.len(), 20);
    assert_eq!(rows, want);
    assert_eq!(offset_limit(&plan, 3, 5, read), want[3..8]);
    // Pages of 1: each read asks for 2 rows, most of which do not match.
    assert_eq!(pages(&table, &plan, 1), want);
}

fn ev() -> impl Strategy<Value = Ev> {
    (0u32..12, 0u8..4, 0u16..3).prop_map(|(user, status, seq)| Ev { user, status, seq })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn fuzzy_pages_match_brute_force(
        rows in prop::collection::vec(ev(), 0..60),
        status in 0u8..4,
        seq in prop::option::of(0u16..3),
        size in 1usize..6,
        limit in prop::option::of(0usize..8),
        reversed: bool,
        offset in 0usize..10,
    ) {
        let table: Table = rows.iter().map(|r| r.to_vec().unwrap()).collect();
        let q = Ev::scan().user.any().status.eq(status);
        let mut plan = match seq {
            Some(seq) => q.seq.eq(seq).plan().unwrap(),
            None => q.plan().unwrap(),
        };
        if reversed {
            plan = plan.reversed();
        }
        if let Some(l) = limit {
            plan = plan.with_limit(l);
        }
        let want = fuzzy_plan_keys(&table, &plan);
        prop_assert_eq!(&pages(&table, &plan, size), &want);
        let read = |r, limit| read_range(&table, &r, limit, plan.is_reversed());
        let by_offset = offset_limit(&plan, offset, size, read);
        let end = want.len().min(offset + size);
        prop_assert_eq!(&by_offset[..], &want[offset.min(end)..end]);
    }
}

/// A fuzzy plan with no range but the whole table renders as one `cbt`
/// read with its row-key regex: `?\n` is any byte, then a newline.
#[test]
fn a_whole_table_fuzzy_plan_renders_as_a_cbt_regex_read() {
    let mut fuzzy = rowkey::scan::FuzzyKey::<16>::new();
    fuzzy.push_free(1).unwrap();
    fuzzy.push_fixed(b"\n").unwrap();
    let plan = ScanPlan::all().with_fuzzy(fuzzy);
    assert_eq!(
        plan.cbt("t").unwrap(),
        r"cbt read t $'start=' $'regex=(?s)^\\C\\x0A\\C*'".to_owned() + "\n"
    );
}
