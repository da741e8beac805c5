//! A qualifier's layout through the binary: OpenTSDB's millisecond
//! qualifier (`rowkey_fixtures::layouts::MsQualifier`, a bit-packed part
//! of four fields), its layout file exported as docs/cli.md says. The
//! CLI explains the bits, decodes qualifier bytes into them, encodes them
//! back, and refuses bad bytes and values too wide for their bits with
//! the field and the range, never a panic.

use crate::run::{fails, ok, tmp};
use rowkey::RowKey;
use rowkey_fixtures::layouts::{MsOffset, MsQualifier};

fn layout_file() -> String {
    let path = tmp("MsQualifier.json");
    let json = serde_json::to_string_pretty(MsQualifier::layout()).unwrap();
    std::fs::write(&path, json).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn a_bit_packed_qualifier_is_explained_decoded_and_encoded() {
    let l = layout_file();
    let explained = ok(&["explain", "--layout", &l]);
    assert!(
        explained.contains("(marker:4 offset:22 reserved:2 flags:4)"),
        "{explained}"
    );
    let q = MsQualifier {
        at: MsOffset {
            marker: 0xF,
            offset: 500,
            reserved: 0,
            flags: 0xB,
        },
    };
    assert_eq!(q.to_vec().unwrap(), [0xF0, 0x00, 0x7D, 0x0B]);
    let out = ok(&["decode", "--layout", &l, "--hex", "f0007d0b"]);
    assert!(
        out.contains("marker=15,offset=500,reserved=0,flags=11"),
        "{out}"
    );
    let out = ok(&[
        "encode",
        "--layout",
        &l,
        "at=marker=15,offset=500,reserved=0,flags=11",
    ]);
    assert!(
        out.to_lowercase().contains("f0007d0b") || out.contains(r"\xF0\x00}\x0B"),
        "{out}"
    );
}

#[test]
fn bad_qualifier_bytes_and_values_are_refused_plainly() {
    let l = layout_file();
    // Too short, too long: a fixed width of 4 bytes.
    fails(&["decode", "--layout", &l, "--hex", "f0"]);
    fails(&["decode", "--layout", &l, "--hex", "f0007d0b00"]);
    // 22 bits hold 0 to 4,194,303.
    let e = fails(&[
        "encode",
        "--layout",
        &l,
        "at=marker=15,offset=5000000,reserved=0,flags=0",
    ]);
    assert!(e.contains("0 to 4194303"), "{e}");
    let e = fails(&["encode", "--layout", &l, "at=marker=15,offset=1,flags=0"]);
    assert!(e.contains("`reserved` is missing"), "{e}");
    let e = fails(&["encode", "--layout", &l, "at=offset"]);
    assert!(e.contains("name=value"), "{e}");
}

/// A row of the hotspot sample.
#[derive(RowKey)]
struct SeriesHour {
    id: u32,
    hour: u32,
}

/// `hotspot --max-row-cells` names the rows a sample lists more often
/// than the bound (a key a line for each cell), largest first, with their
/// regions; without the flag it says nothing of rows.
#[test]
fn hotspot_names_rows_over_a_size() {
    let l = tmp("SeriesHour.json");
    std::fs::write(
        &l,
        serde_json::to_string_pretty(SeriesHour::layout()).unwrap(),
    )
    .unwrap();
    let l = l.to_str().unwrap().to_string();
    let key = |id, hour| crate::run::hex(&SeriesHour { id, hour }.to_vec().unwrap());
    let mut lines = Vec::new();
    for (id, hour, cells) in [(1, 5, 50), (2, 5, 3), (3, 6, 120), (4, 1, 40)] {
        lines.extend(std::iter::repeat_n(key(id, hour), cells));
    }
    let keys = tmp("wide_sample.hex");
    std::fs::write(&keys, lines.join("\n") + "\n").unwrap();
    let svg = tmp("wide_sample.svg");
    let args = |extra: &[&'static str]| {
        let mut a: Vec<String> = [
            "hotspot",
            "--layout",
            &l,
            "--keys",
            keys.to_str().unwrap(),
            "--hex",
            "--regions",
            "2",
            "--out",
            svg.to_str().unwrap(),
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let run = |extra: &[&'static str]| {
        let a = args(extra);
        ok(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let out = run(&["--max-row-cells", "40"]);
    let at = out
        .find("2 rows over 40 cells")
        .unwrap_or_else(|| panic!("{out}"));
    let listed: Vec<&str> = out[at..].lines().skip(1).take(2).collect();
    assert!(
        listed[0].contains("120 cells") && listed[1].contains("50 cells"),
        "{out}"
    );
    assert!(run(&["--max-row-cells", "500"]).contains("no row over 500 cells"));
    assert!(!run(&[]).contains("cells"), "no flag, no rows named");
    // A bound that is not a number is a usage error, as clap gives them.
    let a = args(&["--max-row-cells", "lots"]);
    crate::run::rowkey(&a.iter().map(String::as_str).collect::<Vec<_>>())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--max-row-cells"));
}
