//! The docs a reader follows say one thing and hold together: the field
//! attribute table in rustdoc (docs/attributes.md, included by src/lib.rs)
//! is the guide's (docs/designing-a-key.md); README.md stays a short door
//! whose links, and the guide's, lead somewhere; every chapter of the
//! guide runs its examples as doctests.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The chapter that shows the field attribute table.
const TABLE_CHAPTER: &str = "docs/designing-a-key.md";

#[test]
fn the_attribute_table_is_the_guides() {
    let table = read("docs/attributes.md");
    let chapter = read(TABLE_CHAPTER);
    assert!(
        table.lines().count() > 10,
        "docs/attributes.md is the attribute table"
    );
    assert!(
        chapter.contains(&table),
        "{TABLE_CHAPTER}'s attribute table differs from docs/attributes.md (rustdoc's): keep them one text"
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
        "#[phoenix(",
    ] {
        assert!(table.contains(attribute), "no row for {attribute}");
    }
}

/// README.md is a door: the pitch, the set-up commands, one key, one query,
/// one store, the CLI and the guide's chapters. Reference goes in docs/.
const README_MAX_LINES: usize = 250;

/// The set-up commands, README.md's first code block: CI and the
/// contributors' guide name them as "the README's commands".
const SETUP: &str = "```sh
cargo run --example demo                 # the main demo: seed layouts, keys, errors
cargo test --workspace --all-features    # every test: unit, property, golden, ui, doc
```";

/// The guide's files: every `docs/*.md`, by file name.
fn guide_files() -> BTreeSet<String> {
    let mut files = BTreeSet::new();
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".md") {
            files.insert(name);
        }
    }
    files
}

/// Markdown outside fenced code blocks, line by line.
fn prose_lines(text: &str) -> Vec<&str> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push(line);
        }
    }
    out
}

/// Every inline link target (`[text](target)`) outside code blocks.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose_lines(text) {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after
                .find(')')
                .unwrap_or_else(|| panic!("an unclosed link in {line:?}"));
            out.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    out
}

/// The anchors GitHub gives a file's headings: lowercased, spaces as `-`,
/// every character but letters, digits, `-` and `_` dropped; a repeated
/// heading gets `-1`, `-2`.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in prose_lines(text) {
        let hashes = line.len() - line.trim_start_matches('#').len();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let heading = line[hashes..].trim();
        let slug: String = heading
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let mut anchor = slug.clone();
        let mut n = 0;
        while !out.insert(anchor.clone()) {
            n += 1;
            anchor = format!("{slug}-{n}");
        }
    }
    out
}

/// Checks every relative link of the markdown file `path` (relative to
/// the workspace root): its file exists, and a `#anchor` names a heading
/// of the file it points into. Returns the files linked, relative to the
/// workspace root.
fn check_links(path: &str) -> BTreeSet<PathBuf> {
    let text = read(path);
    let dir = Path::new(path).parent().unwrap();
    let mut linked = BTreeSet::new();
    for target in link_targets(&text) {
        if target.starts_with("http://") || target.starts_with("https://") {
            continue;
        }
        let (file, anchor) = match target.split_once('#') {
            Some((file, anchor)) => (file, Some(anchor)),
            None => (target.as_str(), None),
        };
        let file = if file.is_empty() {
            PathBuf::from(path)
        } else {
            normalize(&dir.join(file))
        };
        assert!(
            root().join(&file).exists(),
            "{path} links to {target}: {} does not exist",
            file.display()
        );
        if let Some(anchor) = anchor {
            let there = read(file.to_str().unwrap());
            assert!(
                anchors(&there).contains(anchor),
                "{path} links to {target}: {} has no heading #{anchor} (it has {:?})",
                file.display(),
                anchors(&there)
            );
        }
        linked.insert(file);
    }
    linked
}

/// `a/b/../c` as `a/c`.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                assert!(out.pop(), "{} leaves the workspace", path.display());
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
fn the_readme_is_a_short_door() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(
        lines < README_MAX_LINES,
        "README.md has {lines} lines: keep it under {README_MAX_LINES}, and put reference in a chapter of docs/"
    );
    assert!(
        readme.starts_with(&format!("# rowkey\n\n{SETUP}\n")),
        "README.md opens with the set-up commands, as they are:\n{SETUP}"
    );
    // Every chapter it links to exists (check_links), and it links to
    // every chapter: the door shows the whole guide.
    let linked = check_links("README.md");
    for chapter in guide_files() {
        if chapter == "attributes.md" || chapter == "README.md" {
            continue;
        }
        assert!(
            linked.contains(&Path::new("docs").join(&chapter)),
            "README.md's table of contents has no link to docs/{chapter}"
        );
    }
}

#[test]
fn the_guides_links_lead_somewhere() {
    let linked = check_links("docs/README.md");
    for chapter in guide_files() {
        let path = format!("docs/{chapter}");
        check_links(&path);
        if chapter != "attributes.md" && chapter != "README.md" {
            assert!(
                linked.contains(Path::new(&path)),
                "docs/README.md (the guide's index) has no link to {path}"
            );
        }
    }
}

#[test]
fn every_chapter_runs_its_examples_as_doctests() {
    let lib = read("src/lib.rs");
    let files = guide_files();
    assert!(files.contains("designing-a-key.md") && files.contains("changing-a-key.md"));
    let included = |path: &str| {
        let item = format!("#[doc = include_str!(\"../{path}\")]\n#[cfg(doctest)]\npub struct ");
        let crate_doc = format!("#![doc = include_str!(\"../{path}\")]");
        lib.contains(&item) || lib.contains(&crate_doc)
    };
    assert!(
        included("README.md"),
        "src/lib.rs does not run README.md's examples as doctests"
    );
    for chapter in files {
        let path = format!("docs/{chapter}");
        assert!(
            included(&path),
            "src/lib.rs does not run {path}'s examples as doctests: add\n\
             #[doc = include_str!(\"../{path}\")]\n#[cfg(doctest)]\npub struct SomethingDoctests;"
        );
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
