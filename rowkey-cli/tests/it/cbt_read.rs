//! What `cbt read` really prints, decoded: salted IoT keys (rowkey-fixtures'
//! `ReadingKey`: a binary bucket, a NUL-padded device, a `KeyPart` enum, a
//! `#[desc_ts] DateTime<Utc>`) are written to the Bigtable emulator, read
//! back by running `cbt read` against it, and its output is fed to
//! `rowkey decode --cbt` on standard input and as `--keys FILE`. Each field
//! must print as a person writes it.
//!
//! Needs `cbt` (Google Cloud SDK; CI installs it) and the emulator: a
//! missing `cbt` fails the test, saying so.

use crate::run;

use chrono::{DateTime, SecondsFormat, Utc};
use rowkey::bigtable::{blocking, TableSpec};
use rowkey::store::{Cell, Row};
use rowkey::{KeyDisplay, RowKey};
use rowkey_fixtures::emulator::Emulator;
use rowkey_fixtures::layouts::{Metric, ReadingKey};
use std::collections::BTreeMap;
use std::process::Command;

/// Readings whose keys hold what a terminal would hide or break on: NUL
/// padding always, and the first devices whose salt buckets are 0x00 and
/// 0x0A (a newline inside the raw key).
fn readings() -> Vec<ReadingKey> {
    let at = |s: &str| s.parse::<DateTime<Utc>>().unwrap();
    let bucket = |device: &str| {
        ReadingKey {
            device: device.into(),
            metric: Metric::Temp,
            at: at("2026-11-01T00:00:00Z"),
        }
        .to_vec()
        .unwrap()[0]
    };
    let find = |b: u8| {
        (0..)
            .map(|i| format!("dev-{i}"))
            .find(|d| bucket(d) == b)
            .unwrap()
    };
    vec![
        ReadingKey {
            device: "dev-7".into(),
            metric: Metric::Humidity,
            at: at("2026-11-01T07:30:00Z"),
        },
        ReadingKey {
            device: find(0x00),
            metric: Metric::Temp,
            at: at("2026-11-01T07:30:00.250Z"),
        },
        ReadingKey {
            device: find(0x0A),
            metric: Metric::Pressure,
            at: at("1970-01-01T00:00:00Z"),
        },
        ReadingKey {
            device: "a".repeat(32),
            metric: Metric::Humidity,
            at: at("2262-04-11T23:47:16.854775807Z"),
        },
    ]
}

/// The fields of a reading as a person writes them, `name=value`.
fn typed(r: &ReadingKey) -> Vec<String> {
    vec![
        format!("device={}", r.device),
        format!("metric={:?}", r.metric),
        format!("at={}", r.at.to_rfc3339_opts(SecondsFormat::AutoSi, true)),
    ]
}

/// `rowkey decode` output by key: each key's `field=value` lines, from
/// the rows of its field table (`  name  start..end  value  stored`).
fn decoded_fields(out: &str) -> BTreeMap<String, Vec<String>> {
    out.split("\n\n")
        .map(|block| {
            let mut lines = block.lines();
            let header = lines.next().unwrap();
            let (_, key) = header.split_once("): ").unwrap();
            let fields = lines
                .filter_map(|l| {
                    let cols: Vec<&str> = l.split_whitespace().collect();
                    match cols.as_slice() {
                        [name, span, value, ..] if span.contains("..") => {
                            Some(format!("{name}={value}"))
                        }
                        _ => None,
                    }
                })
                .collect();
            (key.to_string(), fields)
        })
        .collect()
}

/// Runs `cbt` against the emulator at `host`.
fn cbt(host: &str, args: &[&str]) -> Vec<u8> {
    let out = Command::new("cbt")
        .env("BIGTABLE_EMULATOR_HOST", host)
        .args(["-project", "p", "-instance", "i"])
        .args(args)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "CBT MISSING: cannot run `cbt` ({e}); this test reads keys as `cbt read` \
                 prints them: install the Google Cloud SDK's cbt (`gcloud components \
                 install cbt`, or the google-cloud-cli-cbt package)"
            )
        });
    assert!(
        out.status.success(),
        "cbt {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `rowkey` with `stdin` on its standard input; expects success, stdout.
fn rowkey_with_input(args: &[&str], stdin: &[u8]) -> String {
    let out = run::rowkey(args).write_stdin(stdin).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

#[test]
fn decodes_what_cbt_read_prints() {
    let rows = readings();
    let emu = Emulator::start();
    let spec = TableSpec::new("readings", &["d"]);
    blocking::create_table(Some(&emu.host), "p", "i", &spec).unwrap();
    let store = blocking::connect_emulator(&emu.host, "p", "i", "readings").unwrap();
    let written: Vec<Row> = rows
        .iter()
        .map(|r| Row::new(r.to_vec().unwrap(), vec![Cell::new("d", "v", "21.5")]))
        .collect();
    store.write_rows(written).unwrap();

    let printed = cbt(&emu.host, &["read", "readings"]);
    // The keys are there as raw bytes: NUL padding, not `\x00`.
    let key = rows[0].to_vec().unwrap();
    assert!(
        printed.windows(key.len()).any(|w| w == key),
        "cbt read prints raw keys: {}",
        KeyDisplay(&printed)
    );

    let layout = run::layout("ReadingKey");
    let layout = layout.to_str().unwrap();
    let from_stdin = rowkey_with_input(&["decode", "--layout", layout, "--cbt"], &printed);
    let file = run::tmp("cbt-read.out");
    std::fs::write(&file, &printed).unwrap();
    let from_file = run::ok(&[
        "decode",
        "--layout",
        layout,
        "--cbt",
        "--keys",
        file.to_str().unwrap(),
    ]);
    assert_eq!(from_stdin, from_file);

    let decoded = decoded_fields(&from_stdin);
    assert_eq!(
        decoded.len(),
        rows.len(),
        "one decoded key a row: {from_stdin}"
    );
    for r in &rows {
        let shown = KeyDisplay(&r.to_vec().unwrap()).to_string();
        assert_eq!(
            decoded.get(&shown),
            Some(&typed(r)),
            "{shown} in {from_stdin}"
        );
    }
    assert_eq!(
        decoded[&KeyDisplay(&key).to_string()],
        ["device=dev-7", "metric=Humidity", "at=2026-11-01T07:30:00Z"]
    );
    assert_eq!(
        from_stdin.matches(": verified against the fields").count(),
        rows.len(),
        "every bucket checked: {from_stdin}"
    );
    // The guard stops the emulator by its pid (also when a test panics).
    let pid = emu.pid();
    drop(emu);
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    assert!(
        !String::from_utf8_lossy(&cmdline).contains("cbtemulator"),
        "the emulator {pid} runs on after its guard dropped"
    );
}
