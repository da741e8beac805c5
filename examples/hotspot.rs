//! Where do 100,000 sequential ids land in a 16-region table? Four layouts
//! of the same ids, side by side: unsalted (one hot region), salted,
//! reversed digits and an md5 hash prefix (spread out).
//!
//! Run: `cargo run --example hotspot`

use rowkey::hotspot::HotspotReport;
use rowkey::split::SplitKeys;
use rowkey::RowKey;

const IDS: u64 = 100_000;
const REGIONS: u32 = 16;

/// The hand-rolled default: the id, big-endian.
#[derive(RowKey)]
struct Plain {
    id: u64,
}

/// A bucket from the id in front.
#[derive(RowKey)]
struct Salted {
    #[salt(buckets = 16)]
    id: u64,
}

/// The id's decimal digits back to front: the fast-changing digit leads.
#[derive(RowKey)]
struct Reversed {
    #[text(width = 20)]
    #[reverse]
    id: u64,
}

/// `md5_hex(id)[0..8] + id`.
#[derive(RowKey)]
struct Hashed {
    #[hash_prefix(len = 8)]
    #[text(width = 20)]
    id: u64,
}

fn report<K: RowKey>(splits: &SplitKeys, make: impl Fn(u64) -> K) -> HotspotReport {
    HotspotReport::new(
        splits,
        (0..IDS).map(|id| make(id).to_vec().expect("ids encode")),
    )
}

fn main() {
    let layouts = [
        (
            "unsalted",
            report(&SplitKeys::uniform(REGIONS), |id| Plain { id }),
        ),
        ("salted", report(&Salted::split_keys(), |id| Salted { id })),
        (
            "reversed",
            report(&SplitKeys::decimal_string(REGIONS), |id| Reversed { id }),
        ),
        (
            "md5 prefix",
            report(&SplitKeys::hex_string(REGIONS), |id| Hashed { id }),
        ),
    ];
    println!("{IDS} sequential ids over {REGIONS} regions (rows per region)\n");
    print!("{:>6}", "region");
    for (name, _) in &layouts {
        print!(" {name:>12}");
    }
    println!();
    for region in 0..REGIONS as usize {
        print!("{region:>6}");
        for (_, r) in &layouts {
            print!(" {:>12}", r.counts()[region]);
        }
        println!();
    }
    print!("{:>6}", "skew");
    for (_, r) in &layouts {
        print!(" {:>11.2}x", r.skew());
    }
    println!("\n\n(skew = fullest region / mean; 1.00x is perfectly even, {REGIONS}.00x is one hot region)\n");
    println!("The salted layout in detail:\n{}", layouts[1].1);
    println!(
        "Pre-split it in the HBase shell:\n  {}",
        Salted::split_keys().hbase_shell("events", "d")
    );
    match Salted::split_keys().cbt("events", "d") {
        Ok(cmd) => println!("or on Bigtable:\n  {cmd}"),
        Err(e) => println!("cbt: {e}"),
    }
}
