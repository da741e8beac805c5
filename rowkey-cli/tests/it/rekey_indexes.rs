//! `rowkey rekey --index`: the hot-event rows moved from 16 salt buckets
//! to 64 with two index tables rebuilt from the new keys (by date, by
//! offset), the layouts guarded by a registry table: checked before
//! anything is written, recorded once verified. Refusals: an index field
//! the new key lacks, a target recorded with another layout.

use crate::run::{layout, rowkey, tmp};
use predicates::prelude::*;
use rowkey::bigtable::{blocking, TableSpec};
use rowkey::store::{Cell, KeyRange, ReadRequest, Row, INDEX_FAMILY, INDEX_QUALIFIER};
use rowkey::{Layout, RowKey};
use rowkey_fixtures::emulator::Emulator;
use rowkey_fixtures::layouts::HotEvent;
use serde_json::{json, Value as Json};
use std::collections::BTreeSet;

fn rows(host: &str, table: &str) -> Vec<Row> {
    let store = blocking::connect_emulator(host, "p", "i", table).unwrap();
    let all = ReadRequest::new([KeyRange::new(Vec::new(), None)]);
    store.read_rows(all).collect::<Result<_, _>>().unwrap()
}

/// HotEvent's layout edited by `edit`, written to `file`.
fn edited(file: &str, edit: impl FnOnce(&mut Json)) -> std::path::PathBuf {
    let text = std::fs::read_to_string(layout("HotEvent")).unwrap();
    let mut json: Json = serde_json::from_str(&text).unwrap();
    edit(&mut json);
    let path = tmp(file);
    std::fs::write(&path, json.to_string()).unwrap();
    path
}

/// An index layout of HotEvent's fields `names` (in that order), unsalted.
fn index_layout(file: &str, index: &str, names: &[&str]) -> std::path::PathBuf {
    edited(file, |j| {
        let fields: Vec<Json> = j["fields"].as_array().unwrap().clone();
        let mut at = 0;
        let mut picked = Vec::new();
        for name in names {
            let mut f = fields.iter().find(|f| f["name"] == *name).unwrap().clone();
            f["offset"] = json!(at);
            at += f["fixed_len"].as_u64().unwrap();
            picked.push(f);
        }
        j["name"] = json!(index);
        j["prefix"] = Json::Null;
        j["fields"] = Json::Array(picked);
        j["max_len"] = json!(at);
        j["fixed_len"] = json!(at);
    })
}

#[test]
fn indexes_are_rebuilt_verified_and_their_layouts_recorded() {
    let emu = Emulator::start();
    for (t, f) in [
        ("events", "d"),
        ("events64", "d"),
        ("by_date", "i"),
        ("by_offset", "i"),
        ("layouts", "l"),
        ("wrong", "d"),
    ] {
        blocking::create_table(Some(&emu.host), "p", "i", &TableSpec::new(t, &[f])).unwrap();
    }
    let events = HotEvent::rows(200);
    let store = blocking::connect_emulator(&emu.host, "p", "i", "events").unwrap();
    let written: Vec<Row> = events
        .iter()
        .map(|r| {
            Row::new(
                r.to_vec().unwrap(),
                vec![Cell::new("d", "o", r.offset.to_string())],
            )
        })
        .collect();
    store.write_rows(written).unwrap();
    let new = edited("rekeyx-64.json", |j| {
        j["prefix"]["Salt"]["buckets"] = 64.into()
    });
    let by_date = index_layout("rekeyx-by-date.json", "EventByDate", &["date", "offset"]);
    let by_offset = index_layout("rekeyx-by-offset.json", "EventByOffset", &["offset"]);
    let arg = |p: &std::path::PathBuf, t: &str| format!("{}={t}", p.to_str().unwrap());
    let args = |to: &str, indexes: Vec<String>| {
        let mut a: Vec<String> = [
            "rekey",
            "--old",
            layout("HotEvent").to_str().unwrap(),
            "--new",
            new.to_str().unwrap(),
            "--emulator",
            &emu.host,
            "--project",
            "p",
            "--instance",
            "i",
            "--from",
            "events",
            "--to",
            to,
            "--registry",
            "layouts",
            "--batch",
            "23",
        ]
        .map(String::from)
        .to_vec();
        for i in indexes {
            a.extend(["--index".to_string(), i]);
        }
        a
    };
    let run = |a: Vec<String>, code: i32| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let out = rowkey(&a)
            .assert()
            .code(code)
            .stderr(predicate::str::contains("panicked").not());
        let o = out.get_output();
        (
            String::from_utf8(o.stdout.clone()).unwrap(),
            String::from_utf8(o.stderr.clone()).unwrap(),
        )
    };

    // An index field the new key lacks: refused before anything is read.
    let stranger = edited("rekeyx-stranger.json", |j| {
        j["name"] = json!("Stranger");
        j["fields"][0]["name"] = json!("when");
    });
    let (_, err) = run(args("events64", vec![arg(&stranger, "by_date")]), 2);
    assert!(
        err.contains("field `when` of Stranger is not a field of the new key HotEvent"),
        "{err}"
    );
    assert!(rows(&emu.host, "events64").is_empty());

    // The re-key with both indexes.
    let (out, err) = run(
        args(
            "events64",
            vec![arg(&by_date, "by_date"), arg(&by_offset, "by_offset")],
        ),
        0,
    );
    assert!(out.contains("re-keyed: 200 rows read, 200 written, 0 dropped, 0 not of the old layout, 400 index rows"), "{out}{err}");
    assert!(
        out.contains("verify: 200 rows expected, 200 found, 400 index rows expected, 400 found"),
        "{out}"
    );
    let main_keys: BTreeSet<Vec<u8>> = rows(&emu.host, "events64")
        .into_iter()
        .map(|r| r.key)
        .collect();
    assert_eq!(main_keys.len(), 200);
    let new_layout = Layout::from_json(&std::fs::read_to_string(&new).unwrap()).unwrap();
    for (table, file) in [("by_date", &by_date), ("by_offset", &by_offset)] {
        let index = Layout::from_json(&std::fs::read_to_string(file).unwrap()).unwrap();
        let idx = rows(&emu.host, table);
        assert_eq!(idx.len(), 200, "{table}");
        for r in idx {
            // Each index row points at a main row whose fields it holds.
            let main = r.value(INDEX_FAMILY, INDEX_QUALIFIER).unwrap().to_vec();
            assert!(main_keys.contains(&main), "{table}");
            let (i, m) = (
                index.decode_key(&r.key).unwrap(),
                new_layout.decode_key(&main).unwrap(),
            );
            for f in index.fields {
                assert_eq!(i.get(f.name), m.get(f.name), "{table}: {}", f.name);
            }
        }
    }
    // The layouts are recorded: a re-key into a table recorded with another
    // layout is refused before writing.
    let registry = rows(&emu.host, "layouts");
    let recorded: BTreeSet<Vec<u8>> = registry.into_iter().map(|r| r.key).collect();
    for t in ["events64", "by_date", "by_offset"] {
        assert!(recorded.contains(t.as_bytes()), "{t} recorded");
    }
    let (_, err) = run(args("wrong", vec![arg(&by_offset, "by_date")]), 2);
    assert!(err.contains("by_date"), "{err}");
    assert!(rows(&emu.host, "wrong").is_empty());
}
