//! The fixture layouts against their snapshots, the JSON files the CLI
//! tests read (`rowkey-cli/tests/layouts/`): an accidental change of a
//! fixture key fails here with the diff. `ROWKEY_BLESS=1` rewrites them.

use rowkey::testing::{assert_layout_unchanged, check_layout_snapshot};
use rowkey::RowKey;
use rowkey_fixtures::layouts::*;

fn snapshot(name: &str) -> String {
    format!("rowkey-cli/tests/layouts/{name}.json")
}

#[test]
fn fixture_layouts_match_their_snapshots() {
    assert_layout_unchanged::<OrderStatus>(snapshot("OrderStatus"));
    assert_layout_unchanged::<HotEvent>(snapshot("HotEvent"));
    assert_layout_unchanged::<SellerTrade>(snapshot("SellerTrade"));
    assert_layout_unchanged::<BuyerTrade>(snapshot("BuyerTrade"));
    assert_layout_unchanged::<RiskProfile>(snapshot("RiskProfile"));
    assert_layout_unchanged::<IdCardProfile>(snapshot("IdCardProfile"));
    assert_layout_unchanged::<PhoneProfile>(snapshot("PhoneProfile"));
    assert_layout_unchanged::<CarTelemetry>(snapshot("CarTelemetry"));
    assert_layout_unchanged::<UserOp>(snapshot("UserOp"));
    assert_layout_unchanged::<SitePage>(snapshot("SitePage"));
    assert_layout_unchanged::<CallRecord>(snapshot("CallRecord"));
    assert_layout_unchanged::<Ledger>(snapshot("Ledger"));
    assert_layout_unchanged::<ReadingKey>(snapshot("ReadingKey"));
    assert_layout_unchanged::<Invoice>(snapshot("Invoice"));
}

mod v2 {
    /// `UserOp` with `#[desc]` on its uid: an accidental format change.
    #[derive(rowkey::RowKey)]
    pub struct UserOp {
        #[desc]
        pub uid: u64,
        #[desc_ts]
        pub at: i64,
        #[max_len(16)]
        pub op: String,
    }
}

#[test]
fn a_changed_layout_fails_with_the_diff() {
    let e = check_layout_snapshot(v2::UserOp::layout(), snapshot("UserOp").as_ref(), false)
        .unwrap_err();
    assert!(
        e.contains(
            "the layout of UserOp is not the snapshot at rowkey-cli/tests/layouts/UserOp.json"
        ),
        "{e}"
    );
    assert!(
        e.contains("SILENT uid: #[desc] added: stored keys decode to other values"),
        "{e}"
    );
    assert!(e.contains("stored rows do NOT read as before: if the change is meant, re-key the table, then bless it with ROWKEY_BLESS=1 cargo test"), "{e}");
    let panicked = std::panic::catch_unwind(|| {
        rowkey::testing::assert_layout_file_unchanged(v2::UserOp::layout(), snapshot("UserOp"))
    });
    assert!(panicked.is_err());
}

#[test]
fn missing_snapshots_fail_until_blessed() {
    let dir = std::env::temp_dir().join(format!("rowkey-snapshots-{}", std::process::id()));
    let path = dir.join("layouts/user_op.json");
    let e = check_layout_snapshot(UserOp::layout(), &path, false).unwrap_err();
    assert!(e.contains("no layout snapshot of UserOp"), "{e}");
    assert!(e.contains("write it with ROWKEY_BLESS=1 cargo test"), "{e}");
    check_layout_snapshot(UserOp::layout(), &path, true).unwrap();
    check_layout_snapshot(UserOp::layout(), &path, false).unwrap();
    // Blessing a change rewrites the snapshot.
    check_layout_snapshot(v2::UserOp::layout(), &path, true).unwrap();
    check_layout_snapshot(v2::UserOp::layout(), &path, false).unwrap();
    assert!(check_layout_snapshot(UserOp::layout(), &path, false).is_err());
    std::fs::write(&path, "{}").unwrap();
    let e = check_layout_snapshot(UserOp::layout(), &path, false).unwrap_err();
    assert!(e.contains("is not a layout snapshot"), "{e}");
}
