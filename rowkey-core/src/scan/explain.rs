//! [`PlanExplain`]: what a plan will read, said before it runs.
//!
//! The cost of a query is in its plan: how many ranges, in how many salt
//! buckets, how much of each, and whether a server-side filter reads rows
//! only to drop them. A user who left a field free (`any()`) should learn
//! here, not from a slow query, that it reads every row of sixteen
//! buckets.

use super::ScanPlan;
use core::fmt;

/// What a [`ScanPlan`] reads: made by [`ScanPlan::explain`]. Its
/// `Display` says it in words, one line per point.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Event {
///     #[salt(buckets = 16, binary)]
///     user: u32,
///     status: u8,
///     seq: u16,
/// }
///
/// let plan = Event::scan().user.any().status.eq(2).plan()?;
/// let cost = plan.explain();
/// assert_eq!((cost.ranges(), cost.buckets_read()), (16, 16));
/// assert!(cost.reads_whole_buckets() && cost.is_filtered());
/// assert_eq!(
///     cost.to_string(),
///     "16 ranges, one in each of 16 salt buckets\n\
///      reads every row of those 16 buckets, keeping the rows whose key matches a pattern \
///      (5 of its 6 bytes free): a server-side filter (Bigtable RowKeyRegexFilter, \
///      HBase FuzzyRowFilter)\n\
///      rows merged across buckets in logical key order"
/// );
///
/// let one = Event::scan().user.eq(7).status.eq(2).plan()?.explain();
/// assert_eq!(one.to_string(), "1 range, in salt bucket 7 of 16");
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlanExplain {
    ranges: usize,
    buckets_read: u32,
    first_bucket: u32,
    salt_buckets: Option<u32>,
    whole_buckets: bool,
    /// The pattern's length and its free bytes.
    filter: Option<(usize, usize)>,
    /// A range on the bytes after the pattern: the field it is on, if
    /// named.
    tail: Option<Option<&'static str>>,
    limit: Option<usize>,
    reversed: bool,
    /// Where rows merge from, for a plan ordered after its IN-lists.
    merge_from: Option<usize>,
}

impl PlanExplain {
    pub(super) fn of<const N: usize>(plan: &ScanPlan<N>) -> Self {
        let ranges = plan.len();
        let salt_buckets = plan.salt().map(|s| s.buckets);
        let (first_bucket, buckets_read) = match plan.salt() {
            // An IN-list's ranges: the buckets they start in.
            Some(salt) => {
                let mut seen: Vec<u32> = plan
                    .ranges()
                    .filter_map(|r| salt.bucket_of_prefix(r.start()))
                    .collect();
                seen.sort_unstable();
                seen.dedup();
                (seen.first().copied().unwrap_or(0), seen.len() as u32)
            }
            None => (0, u32::from(ranges > 0)),
        };
        let (start, stop) = plan.bounds();
        let whole_buckets = ranges > 0
            && plan.ranges().len() == buckets_read as usize
            && start.is_empty()
            && stop.is_none();
        let filter = plan.fuzzy().map(|f| {
            let free = f
                .mask()
                .iter()
                .zip(f.bytes())
                .filter(|(m, _)| **m != 0)
                .count();
            (f.len(), free)
        });
        let tail = plan
            .fuzzy()
            .and_then(|f| f.tail_range().map(|_| f.tail_field()));
        PlanExplain {
            ranges,
            buckets_read,
            first_bucket,
            salt_buckets,
            whole_buckets,
            filter,
            tail,
            limit: plan.limit(),
            reversed: plan.is_reversed(),
            merge_from: plan.order_from,
        }
    }

    /// Ranges read.
    pub fn ranges(&self) -> usize {
        self.ranges
    }

    /// Salt buckets the ranges are in (`1` for an unsalted key with a
    /// range, `0` for a plan that reads nothing).
    pub fn buckets_read(&self) -> u32 {
        self.buckets_read
    }

    /// Whether each range is a whole bucket (or, unsalted, the whole
    /// table): no field before the first free or finished one narrows it.
    pub fn reads_whole_buckets(&self) -> bool {
        self.whole_buckets
    }

    /// Whether a server-side filter reads rows only to keep those whose
    /// key matches a pattern (a field left free with `any()`).
    pub fn is_filtered(&self) -> bool {
        self.filter.is_some()
    }

    /// Whether rows are also kept by a range on a field after a free one
    /// (a residual filter: `driver.any().started.range(..)`).
    pub fn filters_a_range(&self) -> bool {
        self.tail.is_some()
    }

    /// The most rows the query returns.
    pub fn limit(&self) -> Option<usize> {
        self.limit
    }
}

impl fmt::Display for PlanExplain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        if self.ranges == 0 {
            return f.write_str("no range: reads nothing");
        }
        write!(f, "{} range{}", self.ranges, plural(self.ranges))?;
        match self.salt_buckets {
            Some(total) if self.buckets_read == 1 => {
                write!(f, ", in salt bucket {} of {total}", self.first_bucket)?
            }
            Some(_) if self.ranges == self.buckets_read as usize => {
                write!(f, ", one in each of {} salt buckets", self.buckets_read)?
            }
            Some(total) => write!(f, ", in {} of {total} salt buckets", self.buckets_read)?,
            None => {}
        }
        if self.reversed {
            f.write_str(", read last key first")?;
        }
        let what = match (self.whole_buckets, self.salt_buckets) {
            (true, Some(_)) => {
                let n = self.buckets_read as usize;
                format!(
                    "every row of {} {n} bucket{}",
                    if n == 1 { "that" } else { "those" },
                    plural(n)
                )
            }
            (true, None) => "every row of the table".to_string(),
            (false, _) => format!(
                "every row of {}",
                if self.ranges == 1 {
                    "that range"
                } else {
                    "those ranges"
                }
            ),
        };
        if let (Some((len, _)), Some(field)) = (self.filter, self.tail) {
            let what_field = match field {
                Some(name) => format!("{name} (the key's bytes from byte {len} on)"),
                None => format!("key's bytes from byte {len} on"),
            };
            write!(
                f,
                "\nreads {what}, keeping the rows whose key matches a pattern of {len} bytes \
                 and whose {what_field} lie in the range: on the server on Bigtable \
                 (RowKeyRegexFilter), in the client on HBase over Thrift 1 and on MemStore"
            )?;
        } else if let Some((len, free)) = self.filter {
            write!(
                f,
                "\nreads {what}, keeping the rows whose key matches a pattern ({free} of its \
                 {len} bytes free): a server-side filter (Bigtable RowKeyRegexFilter, HBase \
                 FuzzyRowFilter)"
            )?;
        } else if self.whole_buckets {
            write!(f, "\nreads {what}")?;
        }
        match self.merge_from {
            Some(at) => write!(
                f,
                "\nrows merged by their bytes from byte {at} (the fields after the IN-lists)"
            )?,
            None if self.ranges > 1 => f.write_str(if self.salt_buckets.is_some() {
                "\nrows merged across buckets in logical key order"
            } else {
                "\nrows in key order"
            })?,
            None => {}
        }
        if let Some(n) = self.limit {
            write!(f, "\nat most {n} row{}", plural(n))?;
            if self.ranges > 1 {
                write!(f, " (at most {n} from each range, then merged)")?;
            }
        }
        Ok(())
    }
}

impl<const N: usize> ScanPlan<N> {
    /// What the plan reads, before it runs: its ranges and buckets,
    /// whether it reads whole buckets and whether a server-side filter
    /// drops rows it read. See [`PlanExplain`].
    pub fn explain(&self) -> PlanExplain {
        PlanExplain::of(self)
    }
}
