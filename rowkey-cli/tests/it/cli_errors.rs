//! Bad input to the `rowkey` binary: a bad key, an unknown field, a
//! wrong layout file... each is a clear error on stderr and exit code 1,
//! never a panic.

use crate::run;

use predicates::prelude::*;
use run::{fails, keys_file, layout, ok, tmp};

#[test]
fn bad_input_is_a_clear_error() {
    let l = layout("OrderStatus");
    let l = l.to_str().unwrap();
    // Not toStringBinary, not hex.
    let e = fails(&["decode", "--layout", l, "abc\\q"]);
    assert!(
        e.contains("key `abc\\q` is not toStringBinary (\\xNN): at character 3"),
        "{e}"
    );
    let e = fails(&["decode", "--layout", l, "--hex", "7ff"]);
    assert!(e.contains("odd number of hex digits"), "{e}");
    // A key the layout rejects: the field, the byte, a caret.
    let e = fails(&["decode", "--layout", l, "87654321831\\x7F\\xFF"]);
    assert!(
        e.contains("cannot decode OrderStatus.ts at byte 11: the key ends 6 byte(s) too early"),
        "{e}"
    );
    assert!(e.contains("  key: 87654321831\\x7F\\xFF\n"), "{e}");
    // Unknown, missing, repeated and ill-typed fields.
    let e = fails(&["encode", "--layout", l, "user=1"]);
    assert!(
        e.contains("OrderStatus has no field `user` (fields: user_id, ts, order_id)"),
        "{e}"
    );
    let e = fails(&["encode", "--layout", l, "user_id=1"]);
    assert!(e.contains("missing ts, order_id"), "{e}");
    let e = fails(&["encode", "--layout", l, "user_id=1", "user_id=2"]);
    assert!(e.contains("field `user_id` is given twice"), "{e}");
    let e = fails(&["encode", "--layout", l, "user_id=-1", "ts=1", "order_id=1"]);
    assert!(
        e.contains("field `user_id` (u64): -1 is not a u64") || e.contains("`-1` is not a u64"),
        "{e}"
    );
    let e = fails(&["encode", "--layout", l, "user_id=1", "ts=-5", "order_id=1"]);
    assert!(e.contains("cannot encode OrderStatus.ts at byte 11"), "{e}");
    // Wrong layout files.
    let e = fails(&["explain", "--layout", "/nonexistent/L.json"]);
    assert!(
        e.contains("layout /nonexistent/L.json: cannot read it"),
        "{e}"
    );
    let not_json = tmp("not.json");
    std::fs::write(&not_json, "create 't', 'cf'").unwrap();
    let e = fails(&["explain", "--layout", not_json.to_str().unwrap()]);
    assert!(e.contains("is not the JSON of a rowkey layout"), "{e}");
    let other = tmp("other.json");
    std::fs::write(&other, r#"{"name": "X", "fields": []}"#).unwrap();
    let e = fails(&["decode", "--layout", other.to_str().unwrap(), "00"]);
    assert!(
        e.contains("it is layout format 1, older than this rowkey reads"),
        "{e}"
    );
    std::fs::write(
        &other,
        r#"{"format_version": 2, "name": "X", "fields": []}"#,
    )
    .unwrap();
    let e = fails(&["decode", "--layout", other.to_str().unwrap(), "00"]);
    assert!(e.contains("missing field"), "{e}");
    std::fs::write(&other, r#"{"format_version": 9, "name": "X"}"#).unwrap();
    let e = fails(&["decode", "--layout", other.to_str().unwrap(), "00"]);
    assert!(
        e.contains("layout format 9, newer than this rowkey reads (2): upgrade rowkey"),
        "{e}"
    );
    // Hotspot without split keys, or over a field that does not exist.
    let keys = tmp("one.keys");
    std::fs::write(&keys, "0\n").unwrap();
    let e = fails(&[
        "hotspot",
        "--layout",
        l,
        "--keys",
        keys.to_str().unwrap(),
        "--out",
        "/dev/null",
    ]);
    assert!(e.contains("no split keys of its own"), "{e}");
    let e = fails(&[
        "hotspot",
        "--layout",
        l,
        "--keys",
        keys.to_str().unwrap(),
        "--regions",
        "2",
        "--time",
        "when",
        "--out",
        "/dev/null",
    ]);
    assert!(
        e.contains("OrderStatus has no field `when` for --time"),
        "{e}"
    );
    let bad_keys = tmp("bad.keys");
    std::fs::write(&bad_keys, "ok\nno\\x4\n").unwrap();
    let e = fails(&[
        "hotspot",
        "--layout",
        l,
        "--keys",
        bad_keys.to_str().unwrap(),
        "--regions",
        "2",
        "--out",
        "/dev/null",
    ]);
    assert!(e.contains("bad.keys line 2: key `no\\x4`"), "{e}");
    assert!(e.contains("at character 2"), "{e}");

    // A keys file with keys the layout cannot read: a non-zero exit, the
    // count and the first key with its reason.
    let foreign = keys_file("foreign.keys", &[b"short".to_vec(), vec![0xFF; 27]], false);
    let e = fails(&[
        "hotspot",
        "--layout",
        l,
        "--keys",
        foreign.to_str().unwrap(),
        "--regions",
        "2",
        "--out",
        tmp("foreign.svg").to_str().unwrap(),
    ]);
    assert!(
        e.contains("2 of 2 keys do not decode with the layout OrderStatus; the first:"),
        "{e}"
    );
    assert!(e.contains("key: short"), "{e}");
}

/// Counts, files and names that once panicked, aborted or grew memory
/// without bound are errors with a stated maximum.
#[test]
fn hostile_counts_files_and_names() {
    let l = layout("OrderStatus");
    let l = l.to_str().unwrap();
    let keys = keys_file("hostile.keys", &[b"k".to_vec()], false);
    let keys = keys.to_str().unwrap();
    let out = tmp("hostile.svg");
    let out = out.to_str().unwrap();
    for bins in ["18446744073709551615", "4000000000", "0"] {
        let e = rowkey_run(&[
            "hotspot",
            "--layout",
            l,
            "--keys",
            keys,
            "--regions",
            "2",
            "--time",
            "ts",
            "--bins",
            bins,
            "--out",
            out,
        ]);
        assert!(
            e.contains("--bins") && e.contains("1..=1000"),
            "{bins}: {e}"
        );
    }
    for regions in ["4294967295", "65537", "0"] {
        let e = rowkey_run(&[
            "splits",
            "--layout",
            l,
            "--cbt",
            "t",
            "cf",
            "--regions",
            regions,
        ]);
        assert!(
            e.contains("--regions") && e.contains("1..=65536"),
            "{regions}: {e}"
        );
    }
    // A layout that never ends is refused after a bounded read.
    let e = fails(&["explain", "--layout", "/dev/zero"]);
    assert!(
        e.contains("over 1048576 bytes, more than any layout takes"),
        "{e}"
    );
    let big = tmp("big.json");
    std::fs::write(&big, vec![b' '; (1 << 20) + 1]).unwrap();
    let e = fails(&["explain", "--layout", big.to_str().unwrap()]);
    assert!(e.contains("more than any layout takes"), "{e}");
    // A keys file of one endless line.
    let e = fails(&[
        "hotspot",
        "--layout",
        l,
        "--keys",
        "/dev/zero",
        "--regions",
        "2",
        "--out",
        out,
    ]);
    assert!(e.contains("line 1 is over"), "{e}");
    // Names stay names in the commands printed.
    let hbase = ok(&[
        "splits",
        "--layout",
        l,
        "--regions",
        "2",
        "--hbase",
        "t';system('x",
        "cf",
    ]);
    assert!(
        hbase.starts_with(r"create 't\';system(\'x', 'cf',"),
        "{hbase}"
    );
    let ledger = layout("Ledger");
    let cbt = ok(&[
        "splits",
        "--layout",
        ledger.to_str().unwrap(),
        "--cbt",
        "t;touch /tmp/x",
        "cf",
    ]);
    assert!(
        cbt.starts_with("cbt createtable $'t;touch /tmp/x' families=cf "),
        "{cbt}"
    );
}

/// Runs `rowkey`, expecting clap to refuse the arguments (exit 2); stderr.
fn rowkey_run(args: &[&str]) -> String {
    let out = run::rowkey(args)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("panicked").not());
    String::from_utf8(out.get_output().stderr.clone()).unwrap()
}

/// `#[text(width = 3, scale = 5)]` on a decimal, edited into a layout
/// file: `decode` once loaded it and panicked (exit 101) on `1.5`, and
/// `explain` printed "3 zero-padded characters with 5 decimals". The file
/// is refused, naming the field and why.
#[test]
fn a_decimal_text_no_derive_writes_is_refused() {
    let json = serde_json::json!({
        "format_version": 2, "name": "Price", "separator": null,
        "max_len": 3, "fixed_len": 3, "prefix": null,
        "fields": [{
            "name": "amount", "rust_type": "Decimal", "value": "Decimal",
            "codec": {"DecimalText": {"width": 3, "scale": 5}},
            "offset": 0, "max_len": 3, "fixed_len": 3, "order": "Ascending",
            "optional": false, "desc": false
        }]
    });
    let path = tmp("width3scale5.json");
    std::fs::write(&path, json.to_string()).unwrap();
    let l = path.to_str().unwrap();
    for args in [
        &["decode", "--layout", l, "1.5"][..],
        &["explain", "--layout", l],
    ] {
        let e = fails(args);
        assert!(
            e.contains(
                "field `amount`: #[text(width = 3, scale = 5)] leaves no digit before the point"
            ),
            "{e}"
        );
    }
}

/// Output into a pipe whose reader has gone (`rowkey decode .. | head
/// -1`) ends quietly with success; it once panicked with "failed
/// printing to stdout: Broken pipe" and exit 101.
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::process::{Command, Stdio};
    let l = layout("OrderStatus");
    use rowkey::RowKey;
    let row = rowkey_fixtures::layouts::OrderStatus {
        user_id: 13_812_345_678,
        ts: 1_638_316_800_000,
        order_id: 42,
    };
    let key = row.to_vec().unwrap();
    // Far more than a pipe holds, so writes meet the closed pipe.
    let keys = keys_file("pipe.keys", &vec![key; 5000], false);
    let explain = ["explain", "--layout", l.to_str().unwrap()];
    let decode = [
        "decode",
        "--layout",
        l.to_str().unwrap(),
        "--keys",
        keys.to_str().unwrap(),
    ];
    for args in [&explain[..], &decode[..]] {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin!("rowkey"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes before (or while) anything is written.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
    }
}

/// `decode` of a keys file holding no key (empty, or not `cbt read`
/// output) is an error, as `hotspot` says of it; it once printed nothing
/// and succeeded.
#[test]
fn decode_of_no_keys_is_an_error() {
    let l = layout("OrderStatus");
    let l = l.to_str().unwrap();
    let empty = tmp("empty.keys");
    std::fs::write(&empty, "").unwrap();
    let garbage = tmp("garbage.cbt");
    std::fs::write(&garbage, "not what cbt read prints\n").unwrap();
    for (file, cbt) in [(&empty, true), (&garbage, true), (&empty, false)] {
        let file = file.to_str().unwrap();
        let mut args = vec!["decode", "--layout", l, "--keys", file];
        if cbt {
            args.push("--cbt");
        }
        let e = fails(&args);
        assert!(e.contains(&format!("error: {file} holds no keys")), "{e}");
        let mut hotspot = vec!["hotspot", "--layout", l, "--keys", file, "--regions", "2"];
        let svg = tmp("no_keys.svg");
        hotspot.extend(["--out", svg.to_str().unwrap()]);
        if cbt {
            hotspot.push("--cbt");
        }
        let h = fails(&hotspot);
        assert!(h.contains(&format!("error: {file} holds no keys")), "{h}");
    }
    let e = fails(&["decode", "--layout", l, "--cbt", "--keys", "-"]);
    assert!(
        e.contains("error: standard input holds no keys: `cbt read` prints"),
        "{e}"
    );
}
