//! `rowkey rekey` against the Bigtable emulator: the hot-event rows moved
//! from 16 salt buckets to 64 into a new table (resumable, verified, a
//! dry run first), a field map, and the refusals: a re-key in place that
//! the old layout would read again, a map naming no field.

use crate::run;

use predicates::prelude::*;
use rowkey::bigtable::{blocking, TableSpec};
use rowkey::store::{Cell, KeyRange, ReadRequest, Row};
use rowkey::{Layout, RowKey};
use rowkey_fixtures::emulator::Emulator;
use rowkey_fixtures::layouts::HotEvent;
use run::{layout, rowkey, tmp};
use serde_json::Value as Json;

fn edited(name: &str, file: &str, edit: impl FnOnce(&mut Json)) -> std::path::PathBuf {
    let text = std::fs::read_to_string(layout(name)).unwrap();
    let mut json: Json = serde_json::from_str(&text).unwrap();
    edit(&mut json);
    let path = tmp(file);
    std::fs::write(&path, json.to_string()).unwrap();
    path
}

fn keys(host: &str, table: &str) -> Vec<Vec<u8>> {
    let store = blocking::connect_emulator(host, "p", "i", table).unwrap();
    let all = ReadRequest::new([KeyRange::new(Vec::new(), None)]);
    let rows: Vec<Row> = store.read_rows(all).collect::<Result<_, _>>().unwrap();
    rows.into_iter().map(|r| r.key).collect()
}

#[test]
fn rows_move_to_more_buckets_and_verify() {
    let emu = Emulator::start();
    for t in ["events", "events64", "dry", "collide"] {
        blocking::create_table(Some(&emu.host), "p", "i", &TableSpec::new(t, &["d"])).unwrap();
    }
    let rows = HotEvent::rows(300);
    let store = blocking::connect_emulator(&emu.host, "p", "i", "events").unwrap();
    let written: Vec<Row> = rows
        .iter()
        .map(|r| {
            Row::new(
                r.to_vec().unwrap(),
                vec![Cell::new("d", "o", r.offset.to_string())],
            )
        })
        .collect();
    store.write_rows(written).unwrap();
    let new = edited("HotEvent", "rekey-64.json", |j| {
        j["prefix"]["Salt"]["buckets"] = 64.into()
    });
    let (old_s, new_s) = (layout("HotEvent"), new.clone());
    let common = |to: &str| {
        vec![
            "rekey".to_string(),
            "--old".into(),
            old_s.to_str().unwrap().into(),
            "--new".into(),
            new_s.to_str().unwrap().into(),
            "--emulator".into(),
            emu.host.clone(),
            "--project".into(),
            "p".into(),
            "--instance".into(),
            "i".into(),
            "--from".into(),
            "events".into(),
            "--to".into(),
            to.into(),
        ]
    };
    let run = |args: Vec<String>, code: i32| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = rowkey(&args)
            .assert()
            .code(code)
            .stderr(predicate::str::contains("panicked").not());
        let o = out.get_output();
        (
            String::from_utf8(o.stdout.clone()).unwrap(),
            String::from_utf8(o.stderr.clone()).unwrap(),
        )
    };
    // A dry run: the diff and the counts, nothing written.
    let mut dry = common("dry");
    dry.push("--dry-run".into());
    let (out, _) = run(dry, 0);
    assert!(out.contains("SILENT <salt>: 16 buckets, now 64"), "{out}");
    assert!(
        out.contains("dry run (nothing written): 300 rows read, 300 written"),
        "{out}"
    );
    assert!(keys(&emu.host, "dry").is_empty());
    // The re-key, in batches of 37, with a checkpoint file, verified.
    let checkpoint = tmp("rekey-64.checkpoint");
    let _ = std::fs::remove_file(&checkpoint);
    let mut args = common("events64");
    args.extend(["--batch", "37", "--verify", "--checkpoint"].map(String::from));
    args.push(checkpoint.to_str().unwrap().into());
    let (out, _) = run(args.clone(), 0);
    assert!(
        out.contains("re-keyed: 300 rows read, 300 written, 0 dropped"),
        "{out}"
    );
    assert!(
        out.contains(
            "verify: 300 rows expected, 300 found, 0 old rows left, 30 spot-checked, 0 mismatched"
        ),
        "{out}"
    );
    let new_layout = Layout::from_json(&std::fs::read_to_string(&new).unwrap()).unwrap();
    let moved = keys(&emu.host, "events64");
    assert_eq!(moved.len(), 300);
    let mut offsets: Vec<String> = moved
        .iter()
        .map(|k| {
            new_layout
                .decode_key(k)
                .unwrap()
                .get("offset")
                .unwrap()
                .to_string()
        })
        .collect();
    offsets.sort_by_key(|o| o.parse::<u64>().unwrap());
    assert_eq!(offsets, (0..300).map(|i| i.to_string()).collect::<Vec<_>>());
    // Run again: the checkpoint says it is done.
    let (out, _) = run(args, 0);
    assert!(
        out.contains("re-keyed: 300 rows read, 300 written"),
        "{out}"
    );

    // A map that names no field of the new layout; in place, a change the
    // old layout would read again.
    let map = tmp("rekey-bad.map.json");
    std::fs::write(&map, r#"{"when": "date"}"#).unwrap();
    let mut bad = common("dry");
    bad.extend(["--map".into(), map.to_str().unwrap().into()]);
    let (_, err) = run(bad, 2);
    assert!(
        err.contains("the map names `when`, which is not a field of HotEvent"),
        "{err}"
    );
    // A map that sends all rows of an event and day to one key: stopped
    // at the first collision even a row per batch (the colliding rows in
    // different batches), naming the new key and both old rows.
    let map = tmp("rekey-collide.map.json");
    std::fs::write(&map, r#"{"offset": {"value": "1"}}"#).unwrap();
    let mut collide = common("collide");
    collide.extend([
        "--batch".into(),
        "1".into(),
        "--map".into(),
        map.to_str().unwrap().into(),
    ]);
    let (_, err) = run(collide, 2);
    assert!(err.contains("re-key stopped at row"), "{err}");
    assert!(err.contains("both map to the new key"), "{err}");
    // The batches before the collision's, each row alone at its key.
    assert!(keys(&emu.host, "collide").len() < 300);
    let renamed = edited("HotEvent", "rekey-renamed.json", |j| {
        j["fields"][0]["name"] = "event".into()
    });
    let map = tmp("rekey-map.json");
    std::fs::write(&map, r#"{"event": "event_id"}"#).unwrap();
    let mut in_place = common("x");
    in_place.truncate(in_place.len() - 2);
    in_place[4] = renamed.to_str().unwrap().into();
    in_place.extend([
        "--in-place".into(),
        "--map".into(),
        map.to_str().unwrap().into(),
    ]);
    let (_, err) = run(in_place, 2);
    assert!(err.contains("re-key into a new table"), "{err}");
}
