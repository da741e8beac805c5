//! `rowkey hotspot` on a realistic skewed sample: 200,000 team-chat
//! messages whose salt hashes workspace and channel, one workspace with
//! most of the rows in four channels that pair up in two buckets. The
//! report must name what fills each hot region, and the picture, drawn to
//! PNG, must be of the size its SVG says.

use crate::png::{keep, svg_to_png};
use crate::run::{keys_file, ok, tmp};
use rowkey::layout::dynamic::PrefixReport;
use rowkey::RowKey;
use rowkey_fixtures::layouts::Rng;
use std::path::PathBuf;

/// A team-chat message, keyed by workspace and channel (the salt hashes
/// both), newest first.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct ChatMessage {
    #[salt(buckets = 16)]
    #[pad(width = 12)]
    pub workspace: String,
    #[salt]
    #[pad(width = 12)]
    pub channel: String,
    #[desc_ts]
    pub at_ms: i64,
    pub seq: u32,
}

const CHANNELS: [&str; 24] = [
    "general",
    "random",
    "eng",
    "sales",
    "support",
    "design",
    "ops",
    "hiring",
    "incidents",
    "deploys",
    "standup",
    "oncall",
    "product",
    "finance",
    "legal",
    "security",
    "data",
    "mobile",
    "web",
    "billing",
    "growth",
    "infra",
    "qa",
    "docs",
];

fn bucket(workspace: &str, channel: &str) -> u32 {
    let key = message(workspace, channel, 0, 0).to_vec().unwrap();
    match ChatMessage::layout().decode_key(&key).unwrap().prefix {
        Some(PrefixReport::Bucket { bucket, .. }) => bucket,
        other => panic!("salted: {other:?}"),
    }
}

fn message(workspace: &str, channel: &str, at_ms: i64, seq: u32) -> ChatMessage {
    ChatMessage {
        workspace: workspace.into(),
        channel: channel.into(),
        at_ms,
        seq,
    }
}

/// megacorp's four busy channels: two pairs, each pair in one bucket
/// (found by the salt, so that each hot region holds two channels), the
/// pairs in bucket order (the hot regions' order).
pub fn busy_channels() -> [[&'static str; 2]; 2] {
    let mut by_bucket: Vec<(u32, Vec<&'static str>)> = Vec::new();
    for c in CHANNELS {
        let b = bucket("megacorp", c);
        match by_bucket.iter_mut().find(|(x, _)| *x == b) {
            Some((_, cs)) => cs.push(c),
            None => by_bucket.push((b, vec![c])),
        }
    }
    let mut pairs: Vec<(u32, [&str; 2])> = by_bucket
        .iter()
        .filter(|(_, cs)| cs.len() >= 2)
        .map(|(b, cs)| (*b, [cs[0], cs[1]]))
        .take(2)
        .collect();
    pairs.sort();
    [pairs[0].1, pairs[1].1]
}

/// `n` keys: 72% megacorp's four busy channels (18% each), 4% its other
/// channels, 24% forty other workspaces of six channels each, over a
/// week.
pub fn skewed_chat_keys(n: usize) -> Vec<Vec<u8>> {
    let busy = busy_channels().concat();
    let quiet: Vec<&str> = CHANNELS
        .iter()
        .copied()
        .filter(|c| !busy.contains(c))
        .collect();
    let mut r = Rng(30);
    let week_ms = 7 * 24 * 3600 * 1000;
    (0..n)
        .map(|i| {
            let at = 1_767_225_600_000 + r.below(week_ms) as i64;
            let pick = r.below(100);
            let m = if pick < 72 {
                message("megacorp", busy[(pick / 18) as usize], at, i as u32)
            } else if pick < 76 {
                let c = quiet[r.below(quiet.len() as u64) as usize];
                message("megacorp", c, at, i as u32)
            } else {
                let ws = format!("ws-{:02}", r.below(40));
                let c = CHANNELS[r.below(6) as usize];
                message(&ws, c, at, i as u32)
            };
            m.to_vec().unwrap()
        })
        .collect()
}

/// The layout file of [`ChatMessage`], as `export_layout` writes one.
pub fn chat_layout() -> PathBuf {
    let path = tmp("ChatMessage.json");
    std::fs::write(
        &path,
        serde_json::to_string_pretty(ChatMessage::layout()).unwrap(),
    )
    .unwrap();
    path
}

/// The size an SVG says it is, and its text, line by line.
fn svg_size_and_text(svg: &std::path::Path) -> ((u32, u32), String) {
    let text = std::fs::read_to_string(svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG is XML");
    let root = doc.root_element();
    let size = |a| root.attribute(a).unwrap().parse::<u32>().unwrap();
    let words: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect();
    ((size("width"), size("height")), words.join("\n"))
}

/// `rowkey hotspot` on the sample, with `extra` arguments: its stdout and
/// the picture rasterised to PNG (kept as `name` to look at), checked to
/// be the SVG's size.
fn run_and_draw(keys: &std::path::Path, extra: &[&str], name: &str) -> (String, String) {
    run_and_draw_with(&chat_layout(), keys, extra, name)
}

/// `run_and_draw` with another layout file.
fn run_and_draw_with(
    layout: &std::path::Path,
    keys: &std::path::Path,
    extra: &[&str],
    name: &str,
) -> (String, String) {
    let svg = tmp(&format!("{name}.svg"));
    let mut args = vec![
        "hotspot",
        "--layout",
        layout.to_str().unwrap(),
        "--keys",
        keys.to_str().unwrap(),
        "--out",
        svg.to_str().unwrap(),
    ];
    args.extend(extra);
    let out = ok(&args);
    let png = tmp(&format!("{name}.png"));
    let (size, words) = svg_size_and_text(&svg);
    assert_eq!(svg_to_png(&svg, &png), size, "a PNG of the SVG's size");
    keep(&png, name);
    (out, words)
}

/// The report names what fills each hot region, megacorp's two busy
/// channels in each, and so does the picture under the plot: bars, and a
/// heatmap over time.
#[test]
fn hotspot_names_what_fills_each_hot_region_in_text_and_picture() {
    let keys = skewed_chat_keys(200_000);
    let keys_path = keys_file("chat.keys", &keys, false);
    let (out, words) = run_and_draw(&keys_path, &[], "bars");
    assert!(
        out.contains("2 of 16 regions are hot (over 18750 keys, 1.5x the mean)"),
        "{out}"
    );
    let causes: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("  cause: "))
        .collect();
    assert_eq!(causes.len(), 2, "{out}");
    for (cause, pair) in causes.iter().zip(busy_channels()) {
        let busy = |c: &str| format!("{c}: 4");
        assert!(cause.starts_with("workspace = megacorp: 9"), "{cause}");
        assert!(cause.contains("; channel = "), "{cause}");
        assert!(
            cause.contains(&busy(pair[0])) && cause.contains(&busy(pair[1])),
            "{cause} names {pair:?}"
        );
    }
    // Fields of a value per key are spread, not a cause.
    assert!(
        out.contains("  at_ms          no value over 1.6% (over 64 distinct values)\n"),
        "{out}"
    );
    // The picture says the same under the plot, and names its axes.
    for cause in &causes {
        assert!(words.contains(cause), "{cause} in {words}");
    }
    assert!(words.contains("region, by start key"), "{words}");
    assert!(
        words.contains("hot: over 1.5x the mean (18750 keys)"),
        "{words}"
    );

    let (_, words) = run_and_draw(&keys_path, &["--time", "at_ms"], "heat");
    assert!(
        words.contains("keys in a cell (one region, one 7h bin)"),
        "{words}"
    );
    for cause in &causes {
        assert!(words.contains(cause), "{cause} in {words}");
    }
}

/// Issue 48: a heatmap over an integer field labelled its bins "one
/// 600600 hour bin" (600,600 hours). An integer written as a date
/// (`#[text(width = 8)] date: u32`, `20260101`) is a date: bins of whole
/// days, dates under the plot; other integers are counted in values.
#[test]
fn heatmaps_over_integers_say_what_a_bin_holds() {
    use rowkey_fixtures::layouts::HotEvent;
    let layout = crate::run::layout("HotEvent");
    let keys: Vec<Vec<u8>> = HotEvent::rows(2_000)
        .iter()
        .map(|r| r.to_vec().unwrap())
        .collect();
    let keys = keys_file("hot-events.keys", &keys, true);
    let (out, words) = run_and_draw_with(&layout, &keys, &["--hex", "--time", "date"], "dates");
    assert!(out.contains("(regions over date, 10 bins)"), "{out}");
    assert!(
        words.contains("keys in a cell (one region, one 1d bin)"),
        "{words}"
    );
    assert!(words.contains("date (UTC)"), "{words}");
    let first = HotEvent::rows(2_000).iter().map(|r| r.date).min().unwrap();
    let first = format!(
        "{}-{:02}-{:02}",
        first / 10_000,
        first / 100 % 100,
        first % 100
    );
    assert!(words.contains(&first), "{first} in {words}");

    let (out, words) = run_and_draw_with(&layout, &keys, &["--hex", "--time", "event_id"], "ids");
    assert!(out.contains("(regions over event_id, 20 bins)"), "{out}");
    assert!(
        words.contains("keys in a cell (one region, one value of event_id)"),
        "{words}"
    );
    let (_, words) = run_and_draw_with(
        &layout,
        &keys,
        &["--hex", "--time", "event_id", "--bins", "4"],
        "ids-4",
    );
    assert!(
        words.contains("keys in a cell (one region, 5 values of event_id)"),
        "{words}"
    );
}
