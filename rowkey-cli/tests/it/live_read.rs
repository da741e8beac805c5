//! `rowkey get` and `rowkey scan` as a user runs them, against the real
//! stores: the Bigtable emulator, and HBase natively (`zk://`) and through
//! its Thrift 1 server. Rows of the salted HotEvent layout (rowkey-fixtures)
//! are written by the library, then read back by the binary: every key
//! decoded, every cell shown, a prefix scan holding exactly the rows brute
//! force finds, and hostile input refused with a precise message.

use crate::run::{layout, ok, rowkey};
use rowkey::store::{Cell, Row};
use rowkey::RowKey;
use rowkey_fixtures::layouts::HotEvent;

const ROWS: usize = 300;

fn rows() -> Vec<HotEvent> {
    HotEvent::rows(ROWS)
}

fn stored(rows: &[HotEvent]) -> Vec<Row> {
    rows.iter()
        .map(|r| {
            let value = format!("offset {}", r.offset);
            Row::new(r.to_vec().unwrap(), vec![Cell::new("d", "v", value)])
        })
        .collect()
}

/// What every store must show the same way.
fn check(store: &str, table: &str) {
    let rows = rows();
    let layout = layout("HotEvent");
    let layout = layout.to_str().unwrap();
    let at = ["--layout", layout, "--store", store, "--table", table];
    let args =
        |more: &[&str]| -> Vec<String> { at.iter().chain(more).map(|s| s.to_string()).collect() };
    let run = |cmd: &str, more: &[&str]| {
        let mut all = vec![cmd.to_owned()];
        all.extend(args(more));
        ok(&all.iter().map(String::as_str).collect::<Vec<_>>())
    };

    // One row by its fields: the key decoded, the cell shown.
    let r = &rows[17];
    let (id, date, offset) = (
        format!("event_id={}", r.event_id),
        format!("date={}", r.date),
        format!("offset={}", r.offset),
    );
    let out = run("get", &[&id, &date, &offset]);
    assert!(
        out.contains(&format!(
            "event_id = {}, date = {}, offset = {}",
            r.event_id, r.date, r.offset
        )),
        "{store}: {out}"
    );
    assert!(
        out.contains(&format!("d:v = offset {}", r.offset)),
        "{store}: {out}"
    );

    // A row that is not there: exit 1, said so.
    let mut missing = vec!["get".to_owned()];
    missing.extend(args(&[&id, &date, "offset=999999"]));
    let out = rowkey(&missing.iter().map(String::as_str).collect::<Vec<_>>())
        .assert()
        .code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.starts_with("no row "), "{store}: {text}");

    // A prefix (the salt hashes offset, so every bucket is read): exactly
    // the rows brute force finds.
    let want = rows.iter().filter(|x| x.event_id == r.event_id).count();
    assert!(want > 5, "a prefix of several rows");
    let out = run("scan", &[&id, "--limit", "1000"]);
    let shown = out
        .lines()
        .filter(|l| l.starts_with("  event_id = "))
        .count();
    assert_eq!(shown, want, "{store}: {out}");
    assert!(
        out.lines()
            .filter(|l| l.starts_with("  event_id = "))
            .all(|l| l.starts_with(&format!("  event_id = {}, ", r.event_id))),
        "{store}: {out}"
    );
    let plural = if want == 1 { "" } else { "s" };
    assert!(
        out.ends_with(&format!("\n{want} row{plural}\n")),
        "{store}: {out}"
    );

    // Every row, capped.
    let out = run("scan", &["--limit", "7"]);
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with("  event_id = "))
            .count(),
        7
    );
    assert!(
        out.ends_with("7 rows (the limit: --limit N for more)\n"),
        "{store}: {out}"
    );

    // Fields out of key order, or unknown: a precise refusal.
    let mut bad = vec!["scan".to_owned()];
    bad.extend(args(&[&date]));
    let out = rowkey(&bad.iter().map(String::as_str).collect::<Vec<_>>())
        .assert()
        .failure();
    let text = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        text.contains("give `event_id` before `date`") && !text.contains("panicked"),
        "{store}: {text}"
    );
}

#[test]
fn get_and_scan_read_the_bigtable_emulator() {
    use rowkey::bigtable::{blocking, TableSpec};
    let emu = rowkey_fixtures::emulator::Emulator::start();
    blocking::create_table(Some(&emu.host), "p", "i", &TableSpec::new("events", &["d"])).unwrap();
    let store = blocking::connect_emulator(&emu.host, "p", "i", "events").unwrap();
    store.write_rows(stored(&rows())).unwrap();
    check(&format!("bigtable://p/i@{}", emu.host), "events");
    // An address of the wrong shape, said so.
    let out = rowkey(&[
        "scan",
        "--layout",
        layout("HotEvent").to_str().unwrap(),
        "--store",
        "bigtable://p",
        "--table",
        "events",
    ])
    .assert()
    .failure();
    let text = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(text.contains("say bigtable://PROJECT/INSTANCE"), "{text}");
}

#[test]
fn get_and_scan_read_hbase_natively_and_through_thrift() {
    use rowkey::hbase::HBaseClient;
    use rowkey::store::admin::TableSpec;
    let hbase = rowkey_fixtures::hbase::shared();
    let native = format!("zk://127.0.0.1:{}/hbase", hbase.zk_port);
    let table = format!("cli_events_{}", std::process::id());
    rowkey::hbase::blocking::block_on(async {
        let client = HBaseClient::connect(&native).await.unwrap();
        client
            .admin()
            .create_table(&TableSpec::new(&table, &["d"]))
            .await
            .unwrap();
        use rowkey::store::Store;
        client
            .table(&table)
            .write_rows(stored(&rows()))
            .await
            .unwrap();
    });
    check(&native, &table);
    check(&hbase.thrift, &table);
    // A table that is not there, and an address that is none: said so.
    let layout = layout("HotEvent");
    for (store, table, says) in [
        (native.as_str(), "no_such_table", "no_such_table"),
        (hbase.thrift.as_str(), "no_such_table", "no_such_table"),
        ("carrier pigeon", "t", "is no store's address"),
    ] {
        let out = rowkey(&[
            "scan",
            "--layout",
            layout.to_str().unwrap(),
            "--store",
            store,
            "--table",
            table,
        ])
        .assert()
        .failure();
        let text = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(
            text.contains(says) && !text.contains("panicked"),
            "{store}: {text}"
        );
    }
}

/// Fields a prefix cannot be made of are refused before any store is
/// reached (the address is a closed port): each with what is wrong.
#[test]
fn scan_refuses_values_it_cannot_scan_by() {
    let layout = layout("HotEvent");
    for (values, says) in [
        (
            &["event_id=1", "event_id=2"][..],
            "field `event_id` is given twice",
        ),
        (&["date=20210101"][..], "give `event_id` before `date`"),
        (
            &["nope=1"][..],
            "HotEvent has no field `nope` (fields: event_id, date, offset)",
        ),
        (&["event_id=abc"][..], "`abc` is not a u32"),
        (&["event_id"][..], "`event_id` is not field=value"),
    ] {
        let mut args = vec![
            "scan",
            "--layout",
            layout.to_str().unwrap(),
            "--store",
            "127.0.0.1:1",
            "--table",
            "t",
        ];
        args.extend(values);
        let out = rowkey(&args).assert().failure();
        let text = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(
            text.contains(says) && !text.contains("panicked"),
            "{values:?}: {text}"
        );
    }
}
