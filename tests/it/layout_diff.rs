//! `layout::diff` on derived layouts: the issue's two silent changes
//! (a dropped `#[desc]`, a salt of 32 buckets made 64), a rename, and
//! each class of change, with what it says about stored rows.

use rowkey::layout::{diff, Effect, KeyOutcome, MovedShare, ShareBasis, Verdict};
use rowkey::{KeyPart, RowKey};

mod v1 {
    #[derive(rowkey::KeyPart, Debug, Clone, Copy, PartialEq)]
    pub enum Kind {
        Buy,
        Sell,
    }
    #[derive(rowkey::RowKey, Debug, PartialEq)]
    pub struct Spend {
        #[salt(buckets = 32)]
        #[text(width = 6)]
        pub user: u32,
        pub kind: Kind,
        #[desc]
        pub amount: u64,
    }
}

mod renamed {
    #[derive(rowkey::KeyPart, Debug, Clone, Copy, PartialEq)]
    pub enum Side {
        Buy,
        Sell,
    }
    #[derive(rowkey::RowKey)]
    pub struct Outlay {
        #[salt(buckets = 32)]
        #[text(width = 6)]
        pub uid: u32,
        pub side: Side,
        #[desc]
        pub cents: u64,
    }
}

mod no_desc {
    pub use super::v1::Kind;
    #[derive(rowkey::RowKey)]
    pub struct Spend {
        #[salt(buckets = 32)]
        #[text(width = 6)]
        pub user: u32,
        pub kind: Kind,
        pub amount: u64,
    }
}

mod more_buckets {
    pub use super::v1::Kind;
    #[derive(rowkey::RowKey)]
    pub struct Spend {
        #[salt(buckets = 64)]
        #[text(width = 6)]
        pub user: u32,
        pub kind: Kind,
        #[desc]
        pub amount: u64,
    }
}

mod variants {
    #[derive(rowkey::KeyPart, Debug, Clone, Copy, PartialEq)]
    pub enum Swapped {
        Sell,
        Buy,
    }
    #[derive(rowkey::KeyPart, Debug, Clone, Copy, PartialEq)]
    pub enum Appended {
        Buy,
        Sell,
        Hold,
    }
    #[derive(rowkey::RowKey)]
    pub struct Spend {
        #[salt(buckets = 32)]
        #[text(width = 6)]
        pub user: u32,
        pub kind: Swapped,
        #[desc]
        pub amount: u64,
    }
    #[derive(rowkey::RowKey)]
    pub struct Wider {
        #[salt(buckets = 32)]
        #[text(width = 6)]
        pub user: u32,
        pub kind: Appended,
        #[desc]
        pub amount: u64,
    }
}

mod widths {
    pub use super::v1::Kind;
    #[derive(rowkey::RowKey)]
    pub struct Spend {
        #[salt(buckets = 32)]
        #[text(width = 8)]
        pub user: u32,
        pub kind: Kind,
        #[desc]
        pub amount: u64,
    }
    #[derive(rowkey::RowKey)]
    pub struct Added {
        #[salt(buckets = 32)]
        #[text(width = 6)]
        pub user: u32,
        pub kind: Kind,
        #[desc]
        pub amount: u64,
        pub seq: u16,
    }
}

fn keys() -> Vec<Vec<u8>> {
    (0..2000u32)
        .map(|i| {
            let kind = if i % 3 == 0 {
                v1::Kind::Sell
            } else {
                v1::Kind::Buy
            };
            let s = v1::Spend {
                user: i * 7,
                kind,
                amount: u64::from(i) * 1013,
            };
            s.to_vec().unwrap()
        })
        .collect()
}

#[test]
fn a_rename_is_the_same_bytes() {
    let d = diff(v1::Spend::layout(), renamed::Outlay::layout());
    assert_eq!(d.old_fingerprint, d.new_fingerprint);
    assert_eq!(d.verdict(), Verdict::ReadsAsBefore, "{d}");
    assert!(
        d.changes.iter().all(|c| c.effect == Effect::SameBytes),
        "{d}"
    );
    let text = d.to_string();
    assert!(
        text.contains("same user -> uid: renamed from user"),
        "{text}"
    );
    assert!(
        text.contains("same kind -> side: type Kind is now Side"),
        "{text}"
    );
    let d = d.with_sample(v1::Spend::layout(), renamed::Outlay::layout(), &keys());
    assert_eq!(d.sample.unwrap().same, 2000);
}

#[test]
fn a_dropped_desc_is_named_silent_with_the_issues_example() {
    let (old, new) = (v1::Spend::layout(), no_desc::Spend::layout());
    let d = diff(old, new);
    assert_eq!(d.verdict(), Verdict::Silent);
    let c = d.silent().next().unwrap();
    assert_eq!(c.field.as_deref(), Some("amount"));
    assert_eq!(c.effect, Effect::DecodesDifferently);
    assert!(c.sorts_differently);
    assert_eq!(
        c.example.as_deref(),
        Some("72629 reads as 18446744073709478986")
    );
    let key = v1::Spend {
        user: 1,
        kind: v1::Kind::Buy,
        amount: 72629,
    }
    .to_vec()
    .unwrap();
    assert_eq!(KeyOutcome::of(old, new, &key), KeyOutcome::Different);
    let d = d.with_sample(old, new, &keys());
    assert_eq!(d.sample.unwrap().different, 2000, "{d}");
}

#[test]
fn more_buckets_move_rows_and_say_how_many() {
    let (old, new) = (v1::Spend::layout(), more_buckets::Spend::layout());
    let d = diff(old, new);
    assert_eq!(d.verdict(), Verdict::Silent);
    let c = &d.changes[0];
    assert_eq!(c.field.as_deref(), Some("<salt>"));
    // For a uniform hash, 32 -> 64 moves half the rows.
    assert_eq!(
        c.effect,
        Effect::MovesBucket(MovedShare::Counted {
            moved: 32,
            of: 64,
            basis: ShareBasis::UniformHash
        })
    );
    let d = d.with_sample(old, new, &keys());
    let s = d.sample.unwrap();
    assert_eq!(s.same + s.moved, 2000, "{d}");
    assert!((800..1200).contains(&s.moved), "{d}");
    assert!(
        d.to_string().contains("SILENT <salt>: 32 buckets, now 64"),
        "{d}"
    );
}

#[test]
fn enum_variants_reordered_are_silent_and_appended_are_not() {
    let d = diff(v1::Spend::layout(), variants::Spend::layout());
    assert_eq!(d.verdict(), Verdict::Silent, "{d}");
    assert!(d.to_string().contains("byte 0 was Buy, now Sell"), "{d}");
    let d = diff(v1::Spend::layout(), variants::Wider::layout());
    assert_eq!(d.verdict(), Verdict::ReadsAsBefore, "{d}");
    assert!(d.changes.iter().any(|c| c.effect == Effect::Extends), "{d}");
    let _ = variants::Appended::Hold;
    let _ = <variants::Swapped as KeyPart>::FIXED_LEN;
}

#[test]
fn widths_and_fields_make_old_keys_fail_loudly() {
    for new in [widths::Spend::layout(), widths::Added::layout()] {
        let d = diff(v1::Spend::layout(), new);
        assert_eq!(d.verdict(), Verdict::FailsLoudly, "{d}");
        let d = d.with_sample(v1::Spend::layout(), new, &keys());
        assert_eq!(d.sample.unwrap().fails, 2000, "{d}");
    }
    let d = diff(widths::Added::layout(), v1::Spend::layout());
    assert!(d.to_string().contains("LOUD seq: removed"), "{d}");
}
