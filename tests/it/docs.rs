//! The docs a reader follows say one thing: the field attribute table in
//! rustdoc (docs/attributes.md, included by src/lib.rs) is README.md's.

#[test]
fn the_attribute_table_is_the_readmes() {
    let root = env!("CARGO_MANIFEST_DIR");
    let read = |path: &str| std::fs::read_to_string(format!("{root}/{path}")).unwrap();
    let table = read("docs/attributes.md");
    let readme = read("README.md");
    assert!(
        table.lines().count() > 10,
        "docs/attributes.md is the attribute table"
    );
    assert!(
        readme.contains(&table),
        "README.md's attribute table differs from docs/attributes.md (rustdoc's): keep them one text"
    );
    // Every attribute the derive takes has a row.
    for attribute in [
        "#[text",
        "#[pad(",
        "#[max_len(",
        "#[reverse",
        "#[desc_ts]",
        "#[desc]",
        "#[salt(",
        "#[hash_prefix(",
    ] {
        assert!(table.contains(attribute), "no row for {attribute}");
    }
}

/// Each seed example and the layouts it runs: the key structs live once,
/// in the fixtures crate (the tests use them too), and the example's doc
/// shows them and their queries where a reader opens it.
const SHOWN: &[(&str, &str, &[&str])] = &[
    ("order_status", "events", &["OrderStatus"]),
    ("hot_events", "events", &["HotEvent"]),
    ("seller_trades", "trades", &["Trade", "SellerTrade"]),
    ("buyer_trades", "trades", &["Trade", "BuyerTrade"]),
    ("risk_profile", "lookups", &["RiskProfile"]),
    ("car_telemetry", "lookups", &["CarTelemetry"]),
    ("user_ops", "activity", &["UserOp"]),
    ("site_pages", "activity", &["SitePage"]),
    ("call_records", "calls", &["CallRecord"]),
    ("spending_ledger", "ledger", &["Ledger"]),
];

const BEGIN: &str = "//! <!-- shown from the fixtures (ROWKEY_BLESS=1 cargo test --all-features --test it docs:: rewrites it) -->";
const END: &str = "//! <!-- end of what is shown from the fixtures -->";

/// `struct name`'s definition in `src`, with its docs and attributes.
fn struct_source(src: &str, name: &str) -> String {
    let lines: Vec<&str> = src.lines().collect();
    let at = lines
        .iter()
        .position(|l| {
            l.starts_with(&format!("pub struct {name} ")) || *l == format!("pub struct {name};")
        })
        .unwrap_or_else(|| panic!("no pub struct {name}"));
    let mut first = at;
    while first > 0 && (lines[first - 1].starts_with("#[") || lines[first - 1].starts_with("///")) {
        first -= 1;
    }
    let last = if lines[at].ends_with(';') {
        at
    } else {
        at + lines[at..]
            .iter()
            .position(|l| *l == "}")
            .expect("the struct's closing brace")
    };
    lines[first..=last].join("\n")
}

/// Every `name::scan()` chain in `src`, one line each, as a reader writes
/// it (`?` for `.unwrap()`).
fn queries(src: &str, name: &str) -> Vec<String> {
    let start = format!("{name}::scan()");
    let mut out = Vec::new();
    for (at, _) in src.match_indices(&start) {
        // `Trade::scan()` is not in `SellerTrade::scan()`.
        if src[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &src[at..];
        let mut depth = 0i32;
        let mut end = rest.len();
        let mut unwrapped = false;
        for (i, c) in rest.char_indices() {
            if depth == 0 && rest[i..].starts_with(".unwrap()") {
                (end, unwrapped) = (i, true);
                break;
            }
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' if depth == 0 => {
                    end = i;
                    break;
                }
                ')' | ']' | '}' => depth -= 1,
                ',' | ';' if depth == 0 => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        let chain: String = rest[..end].split_whitespace().collect::<Vec<_>>().join(" ");
        let chain = chain
            .replace(" .", ".")
            .replace("( ", "(")
            .replace(" )", ")");
        out.push(if unwrapped {
            format!("{chain}?")
        } else {
            chain
        });
    }
    out
}

/// What example `example` shows: its key structs and their queries.
fn shown(fixture: &str, types: &[&str]) -> String {
    let root = env!("CARGO_MANIFEST_DIR");
    let path = format!("fixtures/src/layouts/{fixture}.rs");
    let src = std::fs::read_to_string(format!("{root}/{path}")).unwrap();
    let mut text = format!(
        "{BEGIN}\n//!\n//! Defined once in `{path}` (the tests run it too):\n//!\n//! ```ignore\n"
    );
    let mut all_queries = Vec::new();
    for (i, name) in types.iter().enumerate() {
        if i > 0 {
            text.push_str("//!\n");
        }
        for line in struct_source(&src, name).lines() {
            text.push_str(format!("//! {line}").trim_end());
            text.push('\n');
        }
        all_queries.extend(queries(&src, name));
    }
    text.push_str("//! ```\n");
    if !all_queries.is_empty() {
        text.push_str(
            "//!\n//! Its queries, run below on 10,000 rows, each checked against a brute-force filter:\n//!\n//! ```ignore\n",
        );
        for q in all_queries {
            text.push_str(&format!("//! {q}\n"));
        }
        text.push_str("//! ```\n");
    }
    text.push_str("//!\n");
    text.push_str(END);
    text
}

#[test]
fn each_seed_example_shows_its_key_and_queries() {
    let root = env!("CARGO_MANIFEST_DIR");
    let bless = std::env::var_os("ROWKEY_BLESS").is_some();
    for (example, fixture, types) in SHOWN {
        let path = format!("{root}/examples/{example}.rs");
        let src = std::fs::read_to_string(&path).unwrap();
        let want = shown(fixture, types);
        let current = match (src.find(BEGIN), src.find(END)) {
            (Some(b), Some(e)) => Some((b, e + END.len())),
            _ => None,
        };
        let now = current.map(|(b, e)| &src[b..e]);
        if now == Some(want.as_str()) {
            continue;
        }
        assert!(
            bless,
            "examples/{example}.rs does not show {types:?} as fixtures/src/layouts/{fixture}.rs defines them: \
             run ROWKEY_BLESS=1 cargo test --all-features --test it docs::"
        );
        let updated = match current {
            Some((b, e)) => format!("{}{want}{}", &src[..b], &src[e..]),
            None => {
                // After the module doc's first paragraph block (its last `//!` line).
                let last_doc = src.lines().take_while(|l| l.starts_with("//!")).count();
                let mut lines: Vec<String> = src.lines().map(str::to_string).collect();
                lines.insert(last_doc, format!("//!\n{want}"));
                lines.join("\n") + "\n"
            }
        };
        std::fs::write(&path, updated).unwrap();
    }
}
