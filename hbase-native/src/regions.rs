//! [`TableRegions`]: a table's regions as `hbase:meta` lists them, each
//! with its server, checked to cover every key exactly once.

use crate::error::{Error, Result};
use std::sync::Arc;

/// One region: its name (its row in `hbase:meta`), its keys
/// `[start, end)` (empty: open), and the server it is open on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// `TABLE,START,ID.ENCODED.`: how calls name it.
    pub name: Vec<u8>,
    /// The first key (inclusive); empty: the table's start.
    pub start: Vec<u8>,
    /// The end key (exclusive); empty: the table's end.
    pub end: Vec<u8>,
    /// `host:port` of its region server.
    pub server: String,
    /// When that server started (`info:serverstartcode`, milliseconds; 0
    /// if `hbase:meta` does not say): a server restarted at the same
    /// address is another process, with nothing of the first in memory.
    pub server_start: u64,
}

impl Region {
    /// Whether `row` is in the region.
    pub fn contains(&self, row: &[u8]) -> bool {
        row >= self.start.as_slice() && (self.end.is_empty() || row < self.end.as_slice())
    }

    /// The region's name as text (`Bytes.toStringBinary`'s escapes), for
    /// errors.
    pub fn display_name(&self) -> String {
        binary(&self.name)
    }
}

/// A table's regions, in key order, covering every key once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRegions {
    regions: Vec<Arc<Region>>,
}

impl TableRegions {
    /// Checks that `regions` (sorted or not) cover the key space exactly
    /// once; an error says where not (a split or merge is under way).
    pub(crate) fn new(table: &str, mut regions: Vec<Region>) -> Result<TableRegions> {
        if regions.is_empty() {
            return Err(Error::TableNotFound {
                table: table.to_owned(),
            });
        }
        regions.sort_by(|a, b| a.start.cmp(&b.start));
        let transition = |why: String| Error::RegionsInTransition {
            table: table.to_owned(),
            why,
        };
        let mut expected: &[u8] = &[];
        for (i, region) in regions.iter().enumerate() {
            if region.start != expected {
                return Err(transition(format!(
                    "no open region starts at {} (a split or merge is under way?)",
                    binary(expected)
                )));
            }
            if region.end.is_empty() && i + 1 != regions.len() {
                return Err(transition("two regions reach the table's end".into()));
            }
            expected = &region.end;
        }
        if !expected.is_empty() {
            return Err(transition(format!(
                "no open region starts at {}",
                binary(expected)
            )));
        }
        Ok(TableRegions {
            regions: regions.into_iter().map(Arc::new).collect(),
        })
    }

    /// The regions, in key order.
    pub fn regions(&self) -> &[Arc<Region>] {
        &self.regions
    }

    /// The region holding `row`.
    pub fn containing(&self, row: &[u8]) -> &Arc<Region> {
        let i = self.regions.partition_point(|r| r.start.as_slice() <= row);
        // The first region starts at the empty key, so i >= 1.
        &self.regions[i.saturating_sub(1)]
    }

    /// The region holding the greatest key below `key` (empty: the last
    /// region), where a reversed scan bounded by `key` starts; `None` when
    /// no key is below it.
    pub fn before(&self, key: &[u8]) -> Option<&Arc<Region>> {
        if key.is_empty() {
            return self.regions.last();
        }
        let i = self.regions.partition_point(|r| r.start.as_slice() < key);
        i.checked_sub(1).map(|i| &self.regions[i])
    }

    /// The rows `pending` (indexes into `rows`) grouped as one `Multi` per
    /// region server sends them: by server, then by region name.
    pub(crate) fn group<'a>(
        &'a self,
        pending: &[usize],
        row: impl Fn(usize) -> &'a [u8],
    ) -> std::collections::BTreeMap<&'a str, std::collections::BTreeMap<&'a [u8], Vec<usize>>> {
        let mut plan: std::collections::BTreeMap<
            &str,
            std::collections::BTreeMap<&[u8], Vec<usize>>,
        > = std::collections::BTreeMap::new();
        for &i in pending {
            let region = self.containing(row(i));
            plan.entry(region.server.as_str())
                .or_default()
                .entry(region.name.as_slice())
                .or_default()
                .push(i);
        }
        plan
    }

    /// Whether a region is on `server`.
    pub(crate) fn on_server(&self, server: &str) -> bool {
        self.regions.iter().any(|r| r.server == server)
    }
}

/// Bytes as HBase's `Bytes.toStringBinary` prints them.
pub(crate) fn binary(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        if (b' '..=b'~').contains(&b) && b != b'\\' {
            out.push(b as char);
        } else {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn region(start: &[u8], end: &[u8]) -> Region {
        Region {
            name: [b"t,", start, b",1."].concat(),
            start: start.to_vec(),
            end: end.to_vec(),
            server: "s:1".into(),
            server_start: 1,
        }
    }

    #[test]
    fn rows_find_their_region_both_ways() {
        let t = TableRegions::new(
            "t",
            vec![region(b"m", b""), region(b"", b"c"), region(b"c", b"m")],
        )
        .unwrap();
        assert_eq!(t.containing(b"").start, b"");
        assert_eq!(t.containing(b"c").start, b"c");
        assert_eq!(t.containing(b"lz").start, b"c");
        assert_eq!(t.containing(b"zz").start, b"m");
        assert_eq!(t.before(b"").unwrap().start, b"m");
        assert_eq!(t.before(b"m").unwrap().start, b"c");
        assert_eq!(t.before(b"m\0").unwrap().start, b"m");
        assert_eq!(t.before(b"c").unwrap().start, b"");
        assert!(t.before(b"\0").unwrap().start.is_empty());
    }

    #[test]
    fn rows_group_by_server_then_region() {
        let mut far = region(b"m", b"");
        far.server = "t:2".into();
        let t = TableRegions::new("t", vec![region(b"", b"m"), far]).unwrap();
        let rows: Vec<&[u8]> = vec![b"z", b"a", b"n", b"b"];
        let plan = t.group(&[0, 1, 2, 3], |i| rows[i]);
        assert_eq!(plan["s:1"][b"t,,1.".as_slice()], [1, 3]);
        assert_eq!(plan["t:2"][b"t,m,1.".as_slice()], [0, 2]);
    }

    #[test]
    fn gaps_and_overlaps_are_transitions() {
        for regions in [
            vec![region(b"", b"c"), region(b"d", b"")],
            vec![region(b"", b"c"), region(b"c", b"m")],
            vec![region(b"", b""), region(b"c", b"")],
            vec![region(b"a", b"")],
        ] {
            let e = TableRegions::new("t", regions).unwrap_err();
            assert!(matches!(e, Error::RegionsInTransition { .. }), "{e}");
        }
        assert!(matches!(
            TableRegions::new("t", vec![]),
            Err(Error::TableNotFound { .. })
        ));
    }
}
