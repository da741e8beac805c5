//! Bad input to the `rowkey` binary: a bad key, an unknown field, a
//! wrong layout file... each is a clear error on stderr and exit code 1,
//! never a panic.

mod run;

use run::{fails, layout, tmp};

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
    assert!(e.contains("missing field"), "{e}");
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
    assert!(e.contains("bad.keys line 2: at character 2"), "{e}");
}
