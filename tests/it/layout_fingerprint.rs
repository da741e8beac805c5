//! `Layout::fingerprint` pinned for every fixture layout: the values are
//! the same on every build, platform and compiler, so a change here is a
//! change of a key format (or of the canonical encoding, which must then
//! change its magic). Names are not in it: a renamed layout keeps it.

use rowkey::layout::Fingerprint;
use rowkey::RowKey;
use rowkey_fixtures::layouts::{iot_layouts, seed_layouts};

/// Each fixture layout's fingerprint, as `Layout::fingerprint` gave it
/// when the encoding was defined.
const GOLDEN: &[(&str, &str)] = &[
    ("OrderStatus", "376e25df845785d6"),
    ("HotEvent", "4c1307bc32cfb4c1"),
    ("SellerTrade", "690608826f6d9424"),
    ("BuyerTrade", "62781ad4119aac32"),
    ("RiskProfile", "36632a6b6dfe8f89"),
    ("IdCardProfile", "2a700da365850520"),
    ("PhoneProfile", "6774fc1c545b4a23"),
    ("CarTelemetry", "4b1649c7d9ac0a85"),
    ("UserOp", "f1b35f97bdeea85e"),
    ("SitePage", "a9bce07429dbb9b5"),
    ("CallRecord", "618c579f6fa908ed"),
    ("Ledger", "4aa6b326299d327b"),
    ("ReadingKey", "d87ef47d21f1e9e1"),
    ("Invoice", "2cebca44c62caafd"),
];

#[test]
fn fixture_fingerprints_are_pinned() {
    let mut layouts = seed_layouts();
    layouts.extend(iot_layouts());
    let got: Vec<(&str, String)> = layouts
        .iter()
        .map(|l| (l.name, l.fingerprint().to_string()))
        .collect();
    let want: Vec<(&str, String)> = GOLDEN.iter().map(|(n, f)| (*n, f.to_string())).collect();
    assert_eq!(got, want, "a fixture layout's format changed");
    // Each is a different format.
    let mut unique: Vec<&String> = got.iter().map(|(_, f)| f).collect();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), got.len());
    // A layout read back from its JSON has the fingerprint of its type.
    for l in &layouts {
        let json = serde_json::to_string(l).unwrap();
        let back = rowkey::Layout::from_json(&json).unwrap();
        assert_eq!(back.fingerprint(), l.fingerprint(), "{}", l.name);
    }
}

/// A renamed struct, renamed fields and a renamed time crate or newtype
/// are the same format; a dropped `#[desc]` is not.
#[test]
fn names_are_not_in_the_fingerprint() {
    mod old {
        #[derive(rowkey::RowKey)]
        pub struct Spend {
            #[salt(buckets = 32)]
            #[text(width = 6)]
            pub month: u32,
            #[desc]
            pub amount: u64,
        }
    }
    mod renamed {
        #[derive(rowkey::RowKey)]
        pub struct Outlay {
            #[salt(buckets = 32)]
            #[text(width = 6)]
            pub yyyymm: u32,
            #[desc]
            pub cents: u64,
        }
    }
    mod ascending {
        #[derive(rowkey::RowKey)]
        pub struct Spend {
            #[salt(buckets = 32)]
            #[text(width = 6)]
            pub month: u32,
            pub amount: u64,
        }
    }
    mod more_buckets {
        #[derive(rowkey::RowKey)]
        pub struct Spend {
            #[salt(buckets = 64)]
            #[text(width = 6)]
            pub month: u32,
            #[desc]
            pub amount: u64,
        }
    }
    let fp = old::Spend::layout().fingerprint();
    assert_eq!(renamed::Outlay::layout().fingerprint(), fp);
    assert_ne!(ascending::Spend::layout().fingerprint(), fp);
    assert_ne!(more_buckets::Spend::layout().fingerprint(), fp);
    let canonical = old::Spend::layout().canonical_bytes();
    for name in ["Spend", "month", "amount", "u32", "u64"] {
        assert!(
            !canonical.windows(name.len()).any(|w| w == name.as_bytes()),
            "{name} is in the canonical bytes"
        );
    }
    assert_eq!(fp.to_string().parse::<Fingerprint>(), Ok(fp));
}
