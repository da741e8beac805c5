//! `rowkey diff OLD.json NEW.json [--keys FILE]`: each change named with
//! its consequence; exit 0 when stored rows read as before, 1 when they
//! do not, 2 on bad input (never a panic).

use crate::run;

use predicates::prelude::*;
use rowkey::layout::dynamic::Value;
use rowkey::RowKey;
use rowkey_fixtures::layouts::HotEvent;
use run::{keys_file, layout, rowkey, tmp};
use serde_json::Value as Json;

/// `name`'s seed layout JSON, edited by `edit`, written to a scratch file.
fn edited(name: &str, file: &str, edit: impl FnOnce(&mut Json)) -> std::path::PathBuf {
    let mut json: Json =
        serde_json::from_str(&std::fs::read_to_string(layout(name)).unwrap()).unwrap();
    edit(&mut json);
    let path = tmp(file);
    std::fs::write(&path, json.to_string()).unwrap();
    path
}

/// Runs `rowkey diff` and expects exit `code`; stdout and stderr.
fn diff(args: &[&str], code: i32) -> (String, String) {
    let mut all = vec!["diff"];
    all.extend_from_slice(args);
    let out = rowkey(&all)
        .assert()
        .code(code)
        .stderr(predicate::str::contains("panicked").not());
    let o = out.get_output();
    (
        String::from_utf8(o.stdout.clone()).unwrap(),
        String::from_utf8(o.stderr.clone()).unwrap(),
    )
}

fn s(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn the_same_layout_and_a_rename_read_as_before() {
    let l = layout("UserOp");
    let (out, _) = diff(&[s(&l), s(&l)], 0);
    assert!(
        out.contains("no change: stored rows read as before"),
        "{out}"
    );
    let renamed = edited("UserOp", "diff-renamed.json", |j| {
        j["name"] = "Operation".into();
        j["fields"][0]["name"] = "user".into();
    });
    let (out, _) = diff(&[s(&l), s(&renamed)], 0);
    assert!(out.contains("same uid -> user: renamed from uid"), "{out}");
    assert!(out.contains("stored rows read as before"), "{out}");
}

#[test]
fn a_dropped_desc_is_silent_and_exits_1() {
    let old = edited("UserOp", "diff-desc.json", |j| {
        j["fields"][0]["desc"] = true.into();
        j["fields"][0]["order"] = "Descending".into();
    });
    let new = layout("UserOp");
    let old_layout = rowkey::Layout::from_json(&std::fs::read_to_string(&old).unwrap()).unwrap();
    let keys: Vec<Vec<u8>> = (0..50u64)
        .map(|i| {
            let values = [
                Value::UInt(72629 + u128::from(i)),
                Value::Int(1_700_000_000_000),
                Value::Text(format!("op{i}")),
            ];
            old_layout.encode_key(&values, None).unwrap()
        })
        .collect();
    let file = keys_file("diff-desc.keys", &keys, false);
    let (out, _) = diff(&[s(&old), s(&new), "--keys", s(&file)], 1);
    assert!(
        out.contains("SILENT uid: #[desc] dropped: stored keys decode to other values"),
        "{out}"
    );
    assert!(out.contains("72629 reads as 18446744073709478986"), "{out}");
    assert!(
        out.contains(
            "sample of 50 keys, each read whole: 0 read as before, 0 read as before in another \
             bucket, 50 read as other values"
        ),
        "{out}"
    );
    assert!(out.contains("1 silent change(s)"), "{out}");
}

#[test]
fn more_buckets_give_the_share_of_sample_keys_that_move() {
    let old = layout("HotEvent");
    let new = edited("HotEvent", "diff-buckets.json", |j| {
        j["prefix"]["Salt"]["buckets"] = 64.into();
    });
    let keys: Vec<Vec<u8>> = HotEvent::rows(400)
        .iter()
        .map(|r| r.to_vec().unwrap())
        .collect();
    let file = keys_file("diff-buckets.keys", &keys, true);
    let (out, _) = diff(&[s(&old), s(&new), "--keys", s(&file), "--hex"], 1);
    assert!(out.contains("SILENT <salt>: 16 buckets, now 64"), "{out}");
    assert!(
        out.contains("of 400 sample keys) of stored rows are in another bucket"),
        "{out}"
    );
    assert!(out.contains("plans over it miss them"), "{out}");
    // Without keys: the share for a uniform hash.
    let (out, _) = diff(&[s(&old), s(&new)], 1);
    assert!(out.contains("75.0% (48 of 64 for a uniform hash)"), "{out}");
}

/// Issue 41: more buckets *and* `#[desc_ts]` dropped. Each change is
/// counted on every key: the salt's share is the one of the bucket change
/// alone (not 0 because every key also reads another time), and every key
/// reads another time.
#[test]
fn two_changes_at_once_are_each_counted_on_every_key() {
    use rowkey_fixtures::layouts::ReadingKey;
    let buckets = |j: &mut Json| j["prefix"]["Salt"]["buckets"] = 32.into();
    let both = edited("ReadingKey", "diff-two-changes.json", |j| {
        buckets(j);
        j["fields"][2]["codec"] = "Binary".into();
        j["fields"][2]["order"] = "Ascending".into();
    });
    let salt_only = edited("ReadingKey", "diff-buckets-only.json", buckets);
    let keys: Vec<Vec<u8>> = ReadingKey::rows(3000)
        .iter()
        .map(|r| r.to_vec().unwrap())
        .collect();
    let file = keys_file("diff-two-changes.keys", &keys, true);
    let old = layout("ReadingKey");
    let (alone, _) = diff(&[s(&old), s(&salt_only), "--keys", s(&file), "--hex"], 1);
    let (out, _) = diff(&[s(&old), s(&both), "--keys", s(&file), "--hex"], 1);
    let share = |text: &str| -> String {
        let line = text
            .lines()
            .find(|l| l.contains("SILENT <salt>: 16 buckets, now 32"))
            .unwrap_or_else(|| panic!("no salt change in {text}"));
        let end = line.find(" of 3000 sample keys)").expect("a counted share");
        line[..end].rsplit('(').next().unwrap().to_string()
    };
    let moved: u64 = share(&alone).parse().unwrap();
    assert!(moved > 0 && moved < 3000, "{alone}");
    assert_eq!(share(&out), moved.to_string(), "{out}");
    assert!(out.contains("SILENT at: codec DescTimestamp"), "{out}");
    assert!(out.contains("; 3000 of 3000 sample keys (100.0%)"), "{out}");
    assert!(
        out.contains(
            "0 read as before, 0 read as before in another bucket, 3000 read as other values"
        ),
        "{out}"
    );
}

#[test]
fn a_wider_field_fails_loudly_and_exits_1() {
    let new = edited("OrderStatus", "diff-wider.json", |j| {
        j["fields"][2]["codec"]["Text"]["width"] = 10.into();
        j["fields"][2]["max_len"] = 10.into();
        j["fields"][2]["fixed_len"] = 10.into();
        j["max_len"] = 29.into();
        j["fixed_len"] = 29.into();
    });
    let (out, _) = diff(&[s(&layout("OrderStatus")), s(&new)], 1);
    assert!(
        out.contains("LOUD order_id: 10 bytes, was 8 bytes: stored keys fail to decode"),
        "{out}"
    );
}

#[test]
fn bad_input_exits_2_with_a_reason() {
    let good = layout("UserOp");
    let (_, err) = diff(&["/nonexistent/OLD.json", s(&good)], 2);
    assert!(
        err.contains("error: layout /nonexistent/OLD.json: cannot read it"),
        "{err}"
    );
    let empty = tmp("diff-empty.json");
    std::fs::write(&empty, "").unwrap();
    let (_, err) = diff(&[s(&good), s(&empty)], 2);
    assert!(
        err.contains("diff-empty.json: it is not the JSON of a rowkey layout"),
        "{err}"
    );
    let not_layout = tmp("diff-not-layout.json");
    std::fs::write(&not_layout, r#"{"format_version": 2, "rows": [1, 2]}"#).unwrap();
    let (_, err) = diff(&[s(&not_layout), s(&good)], 2);
    assert!(
        err.contains("it is not the JSON of a rowkey layout"),
        "{err}"
    );
    // Two layouts of different keys.
    let (_, err) = diff(&[s(&layout("OrderStatus")), s(&layout("Ledger"))], 2);
    assert!(err.contains("look like layouts of different keys"), "{err}");
    let (out, _) = diff(
        &[s(&layout("OrderStatus")), s(&layout("Ledger")), "--force"],
        1,
    );
    assert!(
        out.contains("LOUD <salt>: a salt of 120 Text buckets added"),
        "{out}"
    );
    // Keys that are not keys, an empty keys file, a missing one.
    let bad = tmp("diff-bad.keys");
    std::fs::write(&bad, "ok\nno\\x4\n").unwrap();
    let (_, err) = diff(&[s(&good), s(&good), "--keys", s(&bad)], 2);
    assert!(err.contains("diff-bad.keys line 2: key `no\\x4`"), "{err}");
    let none = tmp("diff-none.keys");
    std::fs::write(&none, "\n").unwrap();
    let (_, err) = diff(&[s(&good), s(&good), "--keys", s(&none)], 2);
    assert!(err.contains("holds no keys"), "{err}");
    let (_, err) = diff(&[s(&good), s(&good), "--keys", "/nonexistent/k"], 2);
    assert!(err.contains("cannot read /nonexistent/k"), "{err}");
    // Arguments clap refuses.
    let (_, err) = diff(&[s(&good)], 2);
    assert!(err.contains("NEW.json"), "{err}");
}

/// Issue 41: where stderr is not a terminal (here a pipe), indicatif
/// draws nothing: a plain progress line is printed now and then instead
/// (`ROWKEY_PROGRESS_SECS=0`: at every update, so the test needs no
/// clock).
#[test]
fn progress_is_a_plain_line_when_stderr_is_not_a_terminal() {
    let l = layout("UserOp");
    let old_layout = rowkey::Layout::from_json(&std::fs::read_to_string(&l).unwrap()).unwrap();
    let keys: Vec<Vec<u8>> = (0..20u64)
        .map(|i| {
            let values = [
                Value::UInt(u128::from(i)),
                Value::Int(1_700_000_000_000),
                Value::Text(format!("op{i}")),
            ];
            old_layout.encode_key(&values, None).unwrap()
        })
        .collect();
    let file = keys_file("progress.keys", &keys, true);
    let out = rowkey(&["diff", s(&l), s(&l), "--keys", s(&file), "--hex"])
        .env("ROWKEY_PROGRESS_SECS", "0")
        .assert()
        .code(0);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("reading keys: "))
        .collect();
    assert_eq!(lines.len(), 20, "{err}");
    assert!(lines[19].ends_with(" MiB of 0.0 MiB"), "{err}");
    // By default, at most one line every 5 s: none for a short run.
    let out = rowkey(&["diff", s(&l), s(&l), "--keys", s(&file), "--hex"])
        .assert()
        .code(0);
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(!err.contains("reading keys"), "{err}");
}
