//! [`HotspotCauses`] on small samples whose shares are known: the values
//! that fill a hot region are named with exact shares, a field with one
//! value everywhere names nothing, keys that do not decode are counted as
//! such, and a field of many distinct values keeps bounded memory.

use rowkey::hotspot::{percent, HotspotCauses, HotspotReport, TRACKED_VALUES};
use rowkey::split::SplitKeys;
use rowkey::RowKey;

#[derive(RowKey)]
struct Message {
    #[pad(width = 8)]
    workspace: String,
    #[pad(width = 8)]
    channel: String,
    #[text(width = 3)]
    version: u32,
    #[text(width = 6)]
    seq: u32,
}

fn key(workspace: &str, channel: &str, seq: u32) -> Vec<u8> {
    Message {
        workspace: workspace.into(),
        channel: channel.into(),
        version: 1,
        seq,
    }
    .to_vec()
    .unwrap()
}

/// Regions cut at `b`, `m` and `n`: `mega...` keys are all in the third.
fn splits() -> SplitKeys {
    SplitKeys::new([b"b".to_vec(), b"m".to_vec(), b"n".to_vec()])
}

/// 10 keys in each cool region, 40 in `m`: 30 `mega/general`, 6
/// `mega/random`, 4 `moon/x`.
fn sample() -> Vec<Vec<u8>> {
    let mut keys = Vec::new();
    for i in 0..10 {
        keys.push(key("acme", "a", i));
        keys.push(key("beta", "b", i));
        keys.push(key("zeta", "z", i));
    }
    for i in 0..40 {
        keys.push(match i {
            0..30 => key("mega", "general", i),
            30..36 => key("mega", "random", i),
            _ => key("moon", "x", i),
        });
    }
    keys
}

#[test]
fn hotspot_causes_name_the_values_that_fill_a_hot_region() {
    let keys = sample();
    let report = HotspotReport::new(&splits(), &keys);
    assert_eq!(report.counts(), [10, 10, 40, 10]);
    assert_eq!(report.hot_regions(), [2]);
    let causes = HotspotCauses::from_keys(Message::layout(), &report, &keys);
    assert_eq!(causes.sample_keys(), 70);
    let [hot] = causes.regions() else {
        panic!("one hot region")
    };
    assert_eq!((hot.region(), hot.start(), hot.keys()), (2, "m", 40));
    // `version` is 1 everywhere: it fills every region alike and is not
    // named; `random` (15%) is under the cause share.
    assert_eq!(
        causes.cause(hot).to_string(),
        "workspace = mega: 90%; channel = general: 75%"
    );
    let text = causes.to_string();
    assert!(
        text.starts_with(
            "1 of 4 regions are hot (over 26 keys, 1.5x the mean); what fills them, \
             as shares of each region's keys:\n\
             region 3 of 4, from m: 40 keys, 57% of the sample\n  \
             cause: workspace = mega: 90%; channel = general: 75%\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("  workspace  mega: 90%, moon: 10% (2 distinct)\n"),
        "{text}"
    );
    assert!(
        text.contains("  channel    general: 75%, random: 15%, x: 10% (3 distinct)\n"),
        "{text}"
    );
    assert!(
        text.contains("  version    1: 100% (1 distinct)\n"),
        "{text}"
    );
    // Every key decoded, one bucket-less layout: no such lines.
    assert!(
        !text.contains("decode") && !text.contains("salt bucket"),
        "{text}"
    );
}

#[test]
fn hotspot_causes_count_keys_that_do_not_decode() {
    let mut keys = sample();
    // 30 keys of the hot region that are not Message keys at all.
    keys.extend((0..30).map(|i| format!("m-garbage-{i}").into_bytes()));
    let report = HotspotReport::new(&splits(), &keys);
    let causes = HotspotCauses::from_keys(Message::layout(), &report, &keys);
    let hot = &causes.regions()[0];
    assert_eq!((hot.keys(), hot.undecoded()), (70, 30));
    assert_eq!(causes.sample_undecoded(), 30);
    // Shares are of all the region's keys, the undecoded ones included.
    assert_eq!(
        causes.cause(hot).to_string(),
        "workspace = mega: 51%; channel = general: 43%; \
         43% of its keys do not decode with the layout"
    );
    assert!(
        causes
            .to_string()
            .contains("  30 keys (43%) do not decode with the layout: counted in no field\n"),
        "{causes}"
    );
}

#[test]
fn hotspot_causes_keep_bounded_memory_over_many_distinct_values() {
    // 20,000 keys in the hot region, each with its own seq.
    let mut keys: Vec<Vec<u8>> = (0..20_000).map(|i| key("mega", "general", i)).collect();
    keys.extend((0..100).map(|i| key("acme", "a", i)));
    let report = HotspotReport::new(&splits(), &keys);
    let causes = HotspotCauses::from_keys(Message::layout(), &report, &keys);
    let hot = &causes.regions()[0];
    let seq = hot.field(3).unwrap();
    assert_eq!(seq.len(), TRACKED_VALUES);
    assert!(!seq.is_exact());
    assert_eq!(seq.seen(), 20_000);
    // No seq is claimed to fill the region; the line says it is spread.
    assert!(causes.cause(hot).values.iter().all(|v| v.field != "seq"));
    let text = causes.to_string();
    assert!(
        text.contains("  seq        no value over 1.6% (over 64 distinct values)\n"),
        "{text}"
    );
}

#[test]
fn hotspot_causes_show_a_share_known_within_a_range_as_the_range() {
    // In the hot region, 200 channels of one key each, then `general` 300
    // times: it comes after the 64 counters are taken, so its count may
    // hold a few of the others'.
    let mut keys: Vec<Vec<u8>> = (0..200)
        .map(|i| key("mega", &format!("c{i:03}"), i))
        .collect();
    keys.extend((0..300).map(|i| key("mega", "general", i)));
    keys.extend((0..10).map(|i| key("acme", "a", i)));
    let report = HotspotReport::new(&splits(), &keys);
    let causes = HotspotCauses::from_keys(Message::layout(), &report, &keys);
    let hot = &causes.regions()[0];
    let general = hot.field(1).unwrap().top(1)[0];
    assert_eq!(general.value, "general");
    assert!(general.over > 0 && general.at_least() == 300, "{general:?}");
    assert_eq!(
        causes.cause(hot).to_string(),
        "workspace = mega: 100%; channel = general: 60–61%"
    );
    assert!(
        causes
            .to_string()
            .contains("  channel    general: 60–61% (over 64 distinct values)\n"),
        "{causes}"
    );
}

#[test]
fn hotspot_causes_say_so_when_no_region_is_hot() {
    let keys: Vec<Vec<u8>> = ["a", "c", "m", "p"]
        .iter()
        .map(|w| key(w, "x", 1))
        .collect();
    let report = HotspotReport::new(&splits(), &keys);
    let causes = HotspotCauses::from_keys(Message::layout(), &report, &keys);
    assert!(causes.regions().is_empty());
    assert_eq!(
        causes.to_string(),
        "no hot region: none holds over 2 keys, 1.5x the mean\n"
    );
}

#[test]
fn hotspot_causes_of_a_range_without_a_dominant_value_say_so() {
    // The region `m` holds 40 workspaces and channels of one key each; seq
    // is 1 in every key, inside the region and out.
    let mut keys: Vec<Vec<u8>> = (0..40)
        .map(|i| key(&format!("m{i:02}"), &format!("c{i:02}"), 1))
        .collect();
    keys.extend(["a", "c", "p"].iter().map(|w| key(w, "x", 1)));
    let report = HotspotReport::new(&splits(), &keys);
    let causes = HotspotCauses::from_keys(Message::layout(), &report, &keys);
    let hot = &causes.regions()[0];
    assert_eq!(
        causes.cause(hot).to_string(),
        "no field value holds 20% of its keys and more of them than elsewhere: \
         its key range, not a value, is too busy"
    );
}

#[test]
fn hotspot_percentages_read_at_a_glance() {
    assert_eq!(percent(0, 10), "0%");
    assert_eq!(percent(3, 0), "0%");
    assert_eq!(percent(10, 10), "100%");
    assert_eq!(percent(9_999, 10_000), "99.9%");
    assert_eq!(percent(9_949, 10_000), "99%");
    assert_eq!(percent(62, 100), "62%");
    assert_eq!(percent(5, 1000), "0.5%");
    assert_eq!(percent(1, 100_000), "<0.1%");
}

#[derive(RowKey)]
struct Salted {
    #[salt(buckets = 4)]
    #[pad(width = 8)]
    workspace: String,
    #[text(width = 6)]
    seq: u32,
}

#[test]
fn hotspot_causes_show_the_salt_buckets_of_a_region_that_holds_several() {
    let keys: Vec<Vec<u8>> = (0..200)
        .map(|i| {
            Salted {
                workspace: format!("w{}", i % 8),
                seq: i,
            }
            .to_vec()
            .unwrap()
        })
        .collect();
    let layout = Salted::layout();
    // One region holding every bucket: most of the keys, several buckets.
    let splits = SplitKeys::new([b"\x01".to_vec(), b"\xff".to_vec()]);
    let report = HotspotReport::new(&splits, &keys);
    let causes = HotspotCauses::from_keys(layout, &report, &keys);
    let hot = &causes.regions()[0];
    assert_eq!(hot.buckets().len(), 4);
    let text = causes.to_string();
    assert!(text.contains("\n  (salt bucket)  "), "{text}");
    // The bucket is never named as a cause: it follows from the fields.
    assert!(!causes.cause(hot).to_string().contains("bucket"), "{text}");
}

/// Issue 41: a city's share of a hot region was named before the one
/// driver who made all of the city's excess. Here `channel = general`
/// plays the city (85% of the hot region, 25% elsewhere: 60% excess)
/// and `version = 7` the driver (80% of it, nowhere else): the version
/// explains the channel's excess and holds less of the region, so it
/// is named first. `workspace = mega` (100%, nowhere else) is not
/// explained by it and stays first.
#[test]
fn hotspot_causes_name_the_narrower_cause_first() {
    let k = |workspace: &str, channel: &str, version: u32, seq: u32| {
        Message {
            workspace: workspace.into(),
            channel: channel.into(),
            version,
            seq,
        }
        .to_vec()
        .unwrap()
    };
    let mut keys = Vec::new();
    let mut seq = 0;
    let mut next = || {
        seq += 1;
        seq
    };
    // Three cool regions of 40 keys, a quarter `general` each.
    for w in ["acme", "beta", "zeta"] {
        for i in 0..40 {
            let channel = if i % 4 == 0 { "general" } else { "other" };
            keys.push(k(w, channel, 1, next()));
        }
    }
    // The hot region: 160 `general` keys of version 7, 10 of version 1,
    // 30 of other channels.
    for i in 0..200 {
        keys.push(match i {
            0..160 => k("mega", "general", 7, next()),
            160..170 => k("mega", "general", 1, next()),
            _ => k("mega", "other", 1, next()),
        });
    }
    let report = HotspotReport::new(&splits(), &keys);
    assert_eq!(report.hot_regions(), [2]);
    let causes = HotspotCauses::from_keys(Message::layout(), &report, &keys);
    let hot = &causes.regions()[0];
    assert_eq!(
        causes.cause(hot).to_string(),
        "workspace = mega: 100%; version = 7: 80%; channel = general: 85%"
    );
}
