//! [`HotspotCauses`]: for each hot region of a [`HotspotReport`], the
//! values its keys hold, field by field, as the layout decodes them.

use super::{HotspotReport, TopValues, TRACKED_VALUES};
use crate::layout::dynamic::{DecodedKey, PrefixReport};
use crate::layout::Layout;
use crate::DecodeError;

/// Some keys (a region's, or the whole sample's), field by field: each
/// field's most frequent values, and how many keys did not decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Tally {
    pub(super) keys: u64,
    pub(super) undecoded: u64,
    /// One per field of the layout, in key order.
    pub(super) fields: Vec<TopValues>,
    /// The salt bucket each key is stored under.
    pub(super) buckets: TopValues,
}

impl Tally {
    fn new(fields: usize) -> Self {
        Tally {
            keys: 0,
            undecoded: 0,
            fields: vec![TopValues::new(TRACKED_VALUES); fields],
            buckets: TopValues::new(TRACKED_VALUES),
        }
    }

    fn add(&mut self, key: &KeyValues) {
        self.keys += 1;
        match key {
            KeyValues::Undecoded => self.undecoded += 1,
            KeyValues::Decoded { values, bucket } => {
                for (tally, value) in self.fields.iter_mut().zip(values) {
                    if let Some(v) = value {
                        tally.add(v);
                    }
                }
                if let Some(b) = bucket {
                    self.buckets.add(b);
                }
            }
        }
    }
}

/// One key's values as text, each field's in the layout's order (`None`
/// where the decoded key has no such field, which a layout's own decoder
/// never gives).
enum KeyValues {
    Undecoded,
    Decoded {
        values: Vec<Option<String>>,
        bucket: Option<String>,
    },
}

/// The keys of one hot region, field by field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegionValues {
    region: usize,
    start: String,
    pub(super) tally: Tally,
}

impl RegionValues {
    /// The region's index, in key order from 0.
    pub fn region(&self) -> usize {
        self.region
    }

    /// Its start key as the table shows it (`(start)` for the first).
    pub fn start(&self) -> &str {
        &self.start
    }

    /// Keys counted in it.
    pub fn keys(&self) -> u64 {
        self.tally.keys
    }

    /// Of those, the keys the layout could not decode: counted in
    /// [`keys`](Self::keys), in no field.
    pub fn undecoded(&self) -> u64 {
        self.tally.undecoded
    }

    /// The `i`-th field's values among the region's decoded keys.
    pub fn field(&self, i: usize) -> Option<&TopValues> {
        self.tally.fields.get(i)
    }

    /// The salt buckets of the region's decoded keys (empty for a layout
    /// without a salt).
    pub fn buckets(&self) -> &TopValues {
        &self.tally.buckets
    }
}

/// The field values that fill each hot region of a [`HotspotReport`]:
/// every key of the sample decoded by its layout, each field's values
/// counted per hot region (and over the whole sample, to tell a value
/// that fills a region from one that is everywhere). Memory is bounded:
/// [`TRACKED_VALUES`] counters a field, per hot region, whatever the
/// number of keys or distinct values.
///
/// ```
/// use rowkey::hotspot::{HotspotCauses, HotspotReport};
/// use rowkey::{split::SplitKeys, RowKey};
///
/// #[derive(RowKey)]
/// struct Message {
///     #[pad(width = 8)]
///     workspace: String,
///     #[pad(width = 8)]
///     channel: String,
/// }
///
/// let keys: Vec<Vec<u8>> = [("acme", "a"), ("mega", "general"), ("mega", "general"),
///                           ("mega", "random"), ("mega", "random"), ("zeta", "z")]
///     .iter()
///     .map(|(w, c)| Message { workspace: w.to_string(), channel: c.to_string() }.to_vec().unwrap())
///     .collect();
/// let splits = SplitKeys::new([b"m".to_vec(), b"n".to_vec()]);
/// let report = HotspotReport::new(&splits, &keys);
/// let causes = HotspotCauses::from_keys(Message::layout(), &report, &keys);
/// let hot = &causes.regions()[0];
/// assert_eq!((hot.start(), hot.keys()), ("m", 4));
/// assert_eq!(
///     causes.cause(hot).to_string(),
///     "workspace = mega: 100%; channel = general: 50%, random: 50%"
/// );
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct HotspotCauses {
    pub(super) field_names: Vec<&'static str>,
    pub(super) regions: Vec<RegionValues>,
    /// Each region's place in `regions`, if it is hot.
    slots: Vec<Option<usize>>,
    pub(super) sample: Tally,
    pub(super) region_count: usize,
    pub(super) hot_threshold: f64,
}

impl HotspotCauses {
    /// An empty count for `report`'s hot regions, of keys of `layout`;
    /// [`add`](Self::add) each key.
    pub fn new(layout: &Layout, report: &HotspotReport) -> Self {
        let field_names: Vec<&'static str> = layout.fields.iter().map(|f| f.name).collect();
        let n = field_names.len();
        let mut slots = vec![None; report.counts().len()];
        let mut regions = Vec::new();
        for r in report.hot_regions() {
            slots[r] = Some(regions.len());
            regions.push(RegionValues {
                region: r,
                start: report.start_label(r),
                tally: Tally::new(n),
            });
        }
        HotspotCauses {
            field_names,
            regions,
            slots,
            sample: Tally::new(n),
            region_count: report.counts().len(),
            hot_threshold: report.hot_threshold(),
        }
    }

    /// Counts a key of `region` as its layout decoded it, or as one that
    /// did not decode (counted as such, in no field).
    pub fn add(&mut self, region: usize, decoded: Result<&DecodedKey, &DecodeError>) {
        let key = match decoded {
            Err(_) => KeyValues::Undecoded,
            Ok(d) => KeyValues::Decoded {
                values: self
                    .field_names
                    .iter()
                    .enumerate()
                    .map(|(i, name)| {
                        // Fields come in the layout's order; found by name
                        // should a decoder ever differ.
                        let field = match d.fields.get(i) {
                            Some(f) if f.name == *name => Some(f),
                            _ => d.fields.iter().find(|f| f.name == *name),
                        };
                        field.map(|f| f.value.to_string())
                    })
                    .collect(),
                // A salt bucket is counted as a value of its own; a hash
                // prefix is not (its field is counted).
                bucket: match d.prefix {
                    Some(PrefixReport::Bucket { bucket, .. }) => Some(bucket.to_string()),
                    _ => None,
                },
            },
        };
        self.sample.add(&key);
        if let Some(&Some(slot)) = self.slots.get(region) {
            self.regions[slot].tally.add(&key);
        }
    }

    /// Decodes each of `keys` with `layout` and counts it in its region
    /// of `report`.
    pub fn from_keys<K: AsRef<[u8]>>(
        layout: &Layout,
        report: &HotspotReport,
        keys: impl IntoIterator<Item = K>,
    ) -> Self {
        let mut causes = HotspotCauses::new(layout, report);
        for k in keys {
            let k = k.as_ref();
            causes.add(report.region_of(k), layout.decode_key(k).as_ref());
        }
        causes
    }

    /// The hot regions, in key order.
    pub fn regions(&self) -> &[RegionValues] {
        &self.regions
    }

    /// The layout's field names, in key order: [`RegionValues::field`]'s
    /// indexes.
    pub fn field_names(&self) -> &[&'static str] {
        &self.field_names
    }

    /// Keys counted in the whole sample.
    pub fn sample_keys(&self) -> u64 {
        self.sample.keys
    }

    /// Keys of the whole sample that did not decode.
    pub fn sample_undecoded(&self) -> u64 {
        self.sample.undecoded
    }
}
