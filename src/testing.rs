//! Checks for your own tests (feature `json`): a key's layout against a
//! snapshot of it checked in beside the tests, so an accidental change
//! of the key format fails a test, with the [`diff`](crate::layout::diff())
//! that says what it does to stored rows, instead of reaching a table.
//!
//! A snapshot is the layout's JSON ([`Layout::to_json`]). Write or
//! rewrite it with `ROWKEY_BLESS=1 cargo test`, as for the repository's
//! other blessed files, after deciding that the change is meant (and,
//! where the diff says stored rows do not read as before, re-keying
//! them). A snapshot does not replace golden keys: it pins the format,
//! golden keys pin the bytes a value writes.

use crate::layout::{diff, Verdict};
use crate::{Layout, RowKey};
use std::path::Path;

/// The environment variable that rewrites snapshots instead of checking
/// them (any value but `0` or empty).
pub const BLESS_VAR: &str = "ROWKEY_BLESS";

/// Panics, printing the diff, when `K`'s layout is not the one in the
/// snapshot at `path` (relative paths are from the directory `cargo
/// test` runs in: the package's root); a missing snapshot is an error
/// too. With `ROWKEY_BLESS=1` it writes the snapshot instead.
///
/// ```
/// use rowkey::RowKey;
/// use rowkey::testing::assert_layout_unchanged;
///
/// #[derive(RowKey)]
/// struct Op { uid: u64, #[desc_ts] at: i64 }
///
/// # let dir = std::env::temp_dir().join(format!("rowkey-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir).unwrap();
/// # let path = dir.join("op.json");
/// # std::fs::write(&path, Op::layout().to_json() + "\n").unwrap();
/// // In a test, with the snapshot checked in: "layouts/op.json".
/// assert_layout_unchanged::<Op>(&path);
/// ```
pub fn assert_layout_unchanged<K: RowKey>(path: impl AsRef<Path>) {
    assert_layout_file_unchanged(K::layout(), path);
}

/// [`assert_layout_unchanged`] for a layout in hand (one read from JSON,
/// or several keys' in a loop).
///
/// ```should_panic
/// mod v1 { #[derive(rowkey::RowKey)] pub struct Op { #[desc] pub uid: u64 } }
/// mod v2 { #[derive(rowkey::RowKey)] pub struct Op { pub uid: u64 } }
/// use rowkey::RowKey;
/// # let path = std::env::temp_dir().join(format!("rowkey-doc2-{}.json", std::process::id()));
/// std::fs::write(&path, v1::Op::layout().to_json()).unwrap();
/// // Panics: "SILENT uid: #[desc] dropped: stored keys decode to other values ..."
/// rowkey::testing::assert_layout_file_unchanged(v2::Op::layout(), &path);
/// ```
pub fn assert_layout_file_unchanged(layout: &Layout, path: impl AsRef<Path>) {
    if let Err(why) = check_layout_snapshot(layout, path.as_ref(), blessing()) {
        panic!("{why}");
    }
}

fn blessing() -> bool {
    std::env::var_os(BLESS_VAR).is_some_and(|v| !v.is_empty() && v != "0")
}

/// What [`assert_layout_file_unchanged`] checks, as a `Result`: `Err`
/// is its panic message. `bless` writes the snapshot where it is missing
/// or differs (the assertions pass whether `ROWKEY_BLESS` is set).
///
/// ```
/// # #[derive(rowkey::RowKey)] struct Op { uid: u64 }
/// use rowkey::RowKey;
/// use rowkey::testing::check_layout_snapshot;
/// let path = std::env::temp_dir().join(format!("rowkey-doc3-{}/op.json", std::process::id()));
/// let e = check_layout_snapshot(Op::layout(), &path, false).unwrap_err();
/// assert!(e.contains("no layout snapshot of Op"));
/// check_layout_snapshot(Op::layout(), &path, true)?; // writes it
/// check_layout_snapshot(Op::layout(), &path, false)?;
/// # Ok::<(), String>(())
/// ```
pub fn check_layout_snapshot(layout: &Layout, path: &Path, bless: bool) -> Result<(), String> {
    let current = layout.to_json() + "\n";
    let shown = path.display();
    let write = || {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(path, &current).map_err(|e| format!("cannot write {shown}: {e}"))
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(_) if bless => return write(),
        Err(e) => {
            return Err(format!(
                "no layout snapshot of {} at {shown} ({e}): write it with {BLESS_VAR}=1 cargo test",
                layout.name
            ))
        }
    };
    if text == current {
        return Ok(());
    }
    let snapshot = match Layout::from_json(&text) {
        Ok(l) => l,
        Err(_) if bless => return write(),
        Err(e) => return Err(format!("{shown} is not a layout snapshot: {e}")),
    };
    let d = diff(snapshot, layout);
    if d.changes.is_empty() || bless {
        // The same format written otherwise (an older rowkey's spacing),
        // or a change the caller blessed.
        return if bless { write() } else { Ok(()) };
    }
    let advice = match d.verdict() {
        Verdict::ReadsAsBefore => "stored rows read as before: if the change is meant, bless it",
        _ => "stored rows do NOT read as before: if the change is meant, re-key the table, then bless it",
    };
    Err(format!(
        "the layout of {} is not the snapshot at {shown}:\n{d}{advice} with {BLESS_VAR}=1 cargo test",
        layout.name
    ))
}
