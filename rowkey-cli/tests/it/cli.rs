//! The `rowkey` binary end to end, with its real arguments: what each
//! command prints for the seed layouts (checked against the derived code),
//! the hotspot picture (parsed as XML: one bar per region), and bad input
//! (in `cli_errors.rs`).

use crate::run;
use rowkey::hotspot::HotspotReport;
use rowkey::{KeyDisplay, RowKey};
use rowkey_fixtures::layouts::{CallRecord, OrderStatus, SellerTrade, Trade, UserOp};

use run::{fails, hex, keys_file, layout, ok, tmp};

#[test]
fn explain_prints_what_explain_does() {
    let l = layout("OrderStatus");
    assert_eq!(
        ok(&["explain", "--layout", l.to_str().unwrap()]),
        OrderStatus::layout().explain()
    );
}

#[test]
fn decode_reads_pasted_and_hex_keys() {
    let l = layout("OrderStatus");
    let row = OrderStatus {
        user_id: 13_812_345_678,
        ts: 1_638_316_800_000,
        order_id: 42,
    };
    let key = row.to_vec().unwrap();
    let pasted = KeyDisplay(&key).to_string();
    let out = ok(&["decode", "--layout", l.to_str().unwrap(), &pasted]);
    assert!(
        out.starts_with(&format!("OrderStatus (27 bytes): {pasted}\n")),
        "{out}"
    );
    assert!(
        out.contains("user_id   0..11   13812345678    87654321831"),
        "{out}"
    );
    assert!(
        out.contains("ts        11..19  1638316800000  \\x7F\\xFF\\xFE\\x82\\x8C\\xB5\\x87\\xFF"),
        "{out}"
    );
    assert!(
        out.contains("order_id  19..27  42             00000042"),
        "{out}"
    );
    let out_hex = ok(&[
        "decode",
        "--layout",
        l.to_str().unwrap(),
        "--hex",
        &hex(&key),
    ]);
    assert_eq!(out_hex, out);
}

#[test]
fn decode_says_how_far_a_salt_was_checked() {
    let calls = layout("CallRecord");
    let out = ok(&[
        "decode",
        "--layout",
        calls.to_str().unwrap(),
        "2_13812345678_20211201120000",
    ]);
    assert!(
        out.contains("salt bucket 2 (2_): not verified: the bucket comes from call_bucket(&key)"),
        "{out}"
    );
    let trades = layout("SellerTrade");
    let key = Trade::rows(1)[0].seller_key().to_vec().unwrap();
    let out = ok(&[
        "decode",
        "--layout",
        trades.to_str().unwrap(),
        &KeyDisplay(&key).to_string(),
    ]);
    assert!(out.contains(": verified against the fields"), "{out}");
    let mut wrong = key.clone();
    wrong[0] = if wrong[0] == b'0' { b'1' } else { b'0' };
    let err = fails(&[
        "decode",
        "--layout",
        trades.to_str().unwrap(),
        &KeyDisplay(&wrong).to_string(),
    ]);
    assert!(err.contains("SellerTrade.<salt> at byte 0"), "{err}");
}

#[test]
fn encode_prints_the_derived_key_three_ways() {
    let l = layout("UserOp");
    let row = UserOp {
        uid: 7,
        at: 1_638_316_800_000,
        op: "a\"#\n".into(),
    };
    let key = row.to_vec().unwrap();
    let out = ok(&[
        "encode",
        "--layout",
        l.to_str().unwrap(),
        "op=a\"#\n",
        "at=1638316800000",
        "uid=7",
        "--table",
        "ops",
    ]);
    let hex: String = key.iter().map(|b| format!("{b:02X}")).collect();
    assert_eq!(
        out,
        format!(
            "toStringBinary: {}\nhex:            {hex}\nhbase shell:    get 'ops', \"{}\"\n",
            KeyDisplay(&key),
            KeyDisplay(&key)
                .to_string()
                .replace('"', "\\\"")
                .replace('#', "\\#")
        )
    );
}

#[test]
fn encode_needs_the_bucket_a_user_function_picks() {
    let l = layout("CallRecord");
    let args = [
        "encode",
        "--layout",
        l.to_str().unwrap(),
        "tel=13812345678",
        "time=20211201120000",
    ];
    let err = fails(&args);
    assert!(
        err.contains(
            "call_bucket(&key), which only the derived type can run: give the bucket with --bucket N"
        ),
        "{err}"
    );
    let row = CallRecord {
        tel: 13_812_345_678,
        time: 20_211_201_120_000,
    };
    let want = row.to_vec().unwrap();
    let bucket = (want[0] - b'0').to_string();
    let out = ok(&[&args[..], &["--bucket", &bucket]].concat());
    assert!(
        out.starts_with(&format!("toStringBinary: {}\n", KeyDisplay(&want))),
        "{out}"
    );
    let err = fails(&[&args[..], &["--bucket", "6"]].concat());
    assert!(err.contains("bucket 6 is outside the salt's 0..6"), "{err}");
}

#[test]
fn splits_print_the_create_commands() {
    let l = layout("CallRecord");
    let splits = CallRecord::split_keys();
    assert_eq!(
        ok(&[
            "splits",
            "--layout",
            l.to_str().unwrap(),
            "--hbase",
            "calls",
            "cf"
        ]),
        splits.hbase_shell("calls", "cf") + "\n"
    );
    assert_eq!(
        ok(&[
            "splits",
            "--layout",
            l.to_str().unwrap(),
            "--cbt",
            "calls",
            "cf"
        ]),
        splits.cbt("calls", "cf").unwrap() + "\n"
    );
    let risk = layout("RiskProfile");
    let out = ok(&[
        "splits",
        "--layout",
        risk.to_str().unwrap(),
        "--hbase",
        "risk",
        "f",
        "--regions",
        "4",
    ]);
    assert_eq!(
        out,
        "create 'risk', 'f', SPLITS => [\"40000000\", \"80000000\", \"c0000000\"]\n"
    );
}

/// Bars drawn in the picture: rectangles in the bar colours.
fn bars(svg: &str) -> usize {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is XML");
    doc.descendants()
        .filter(|n| n.has_tag_name("rect"))
        .filter(|n| matches!(n.attribute("fill"), Some("#4C78A8" | "#E45756")))
        .count()
}

#[test]
fn hotspot_prints_the_table_and_draws_one_bar_per_region() {
    let l = layout("SellerTrade");
    let keys: Vec<Vec<u8>> = Trade::rows(500)
        .iter()
        .map(|t| t.seller_key().to_vec().unwrap())
        .collect();
    let keys_path = keys_file("seller.keys", &keys, false);
    let svg = tmp("seller.svg");
    let out = ok(&[
        "hotspot",
        "--layout",
        l.to_str().unwrap(),
        "--keys",
        keys_path.to_str().unwrap(),
        "--out",
        svg.to_str().unwrap(),
    ]);
    let report = HotspotReport::new(&SellerTrade::split_keys(), &keys);
    assert!(out.starts_with(&report.to_string()), "{out}");
    assert!(out.ends_with("(one bar per region)\n"), "{out}");
    assert_eq!(bars(&std::fs::read_to_string(&svg).unwrap()), 8);

    // Given split keys (hex, like the keys), 0x00 and 0xFF tails included.
    let splits_file = tmp("seller.splits");
    std::fs::write(&splits_file, "32\n33ff\n3400\n35\n").unwrap();
    let hex_keys = keys_file("seller.hex", &keys, true);
    let out = ok(&[
        "hotspot",
        "--layout",
        l.to_str().unwrap(),
        "--keys",
        hex_keys.to_str().unwrap(),
        "--splits",
        splits_file.to_str().unwrap(),
        "--hex",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert!(out.contains("500 rows over 5 regions"), "{out}");
    assert_eq!(bars(&std::fs::read_to_string(&svg).unwrap()), 5);
}

#[test]
fn hotspot_draws_a_heatmap_over_a_time_field() {
    let l = layout("SellerTrade");
    let keys: Vec<Vec<u8>> = Trade::rows(300)
        .iter()
        .map(|t| t.seller_key().to_vec().unwrap())
        .collect();
    let keys_path = keys_file("heat.keys", &keys, false);
    let svg = tmp("heat.svg");
    let out = ok(&[
        "hotspot",
        "--layout",
        l.to_str().unwrap(),
        "--keys",
        keys_path.to_str().unwrap(),
        "--time",
        "ts",
        "--bins",
        "10",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert!(out.ends_with("(regions over ts, 10 bins)\n"), "{out}");
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    // The background, one cell per region and bin, then the colour
    // scale's 64 steps beside its axis.
    let rects = doc.descendants().filter(|n| n.has_tag_name("rect")).count();
    assert_eq!(rects, 1 + 8 * 10 + 64);
    assert!(
        text.contains("keys in a cell (one region, one "),
        "the colour scale is named, with its unit"
    );
}
