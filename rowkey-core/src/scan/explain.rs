//! [`PlanExplain`]: what a plan will read, said before it runs.
//!
//! The cost of a query is in its plan: how many ranges, in how many salt
//! buckets, how much of each, and whether a server-side filter reads rows
//! only to drop them. A user who left a field free (`any()`) should learn
//! here, not from a slow query, that it reads every row of sixteen
//! buckets.

use super::ScanPlan;
use core::fmt;
use std::sync::Arc;

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
///      the salt hashes user, and user is not fixed: fix it (eq) or list its values (is_in) \
///      to read 1 bucket instead of 16\n\
///      reads every row of those 16 buckets, keeping the rows whose key matches a pattern \
///      (5 of its 6 bytes free): on the server on Bigtable (RowKeyRegexFilter) and on HBase \
///      natively (FuzzyRowFilter), in the client over HBase's Thrift 1 and on MemStore\n\
///      rows merged across buckets in logical key order"
/// );
///
/// let one = Event::scan().user.eq(7).status.eq(2).plan()?.explain();
/// assert_eq!(one.to_string(), "1 range, in salt bucket 7 of 16");
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
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
    /// Each IN-list's field and number of values.
    lists: Arc<[(&'static str, usize)]>,
    /// Salt buckets read per IN-list combination.
    buckets_each: u32,
    /// The salt's inputs, and a bit for each one left unfixed.
    salt_inputs: &'static [&'static str],
    unfixed_salt: u64,
    /// Apache Phoenix's salt: a hash of the whole key.
    whole_key_salt: bool,
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
            lists: plan.fan_out.lists.clone().unwrap_or_else(|| Arc::new([])),
            buckets_each: plan.fan_out.buckets_each,
            salt_inputs: plan.salt().map_or(&[], |s| s.inputs),
            unfixed_salt: plan.fan_out.unfixed_salt,
            whole_key_salt: plan
                .salt()
                .is_some_and(|s| s.hash == crate::salt::SaltHash::Phoenix),
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

    /// Each IN-list that multiplies the ranges, in key order: its field
    /// and its number of values (each combination of values is a range).
    pub fn in_lists(&self) -> &[(&'static str, usize)] {
        &self.lists
    }

    /// Salt buckets each combination of IN-list values reads (each plan,
    /// without IN-lists): 1 when the query fixes every salt input, else
    /// every bucket (of the group).
    pub fn buckets_each(&self) -> u32 {
        self.buckets_each
    }

    /// The salt inputs the query leaves unfixed (free, ranged or never
    /// reached), in key order: fixing each (`eq`, or `is_in` of its
    /// values) brings [`buckets_each`](Self::buckets_each) down to 1.
    pub fn unfixed_salt_inputs(&self) -> impl Iterator<Item = &'static str> + '_ {
        let unfixed = self.unfixed_salt;
        self.salt_inputs
            .iter()
            .enumerate()
            .filter(move |(i, _)| *i < 64 && unfixed & (1 << i) != 0)
            .map(|(_, name)| *name)
    }

    /// Why there are this many ranges: the factors, the product if the
    /// join of touching ranges made fewer, and what would narrow the salt.
    fn write_fan_out(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let salted = self.buckets_each > 1;
        if self.ranges <= 1 || (self.lists.is_empty() && !salted) {
            return Ok(());
        }
        let mut product = 1usize;
        let mut factors = Vec::new();
        for &(field, n) in self.lists.iter() {
            product = product.saturating_mul(n);
            factors.push(format!("{n} values of {field} (is_in)"));
        }
        if salted {
            product = product.saturating_mul(self.buckets_each as usize);
            let each = if self.lists.is_empty() { "" } else { " each" };
            factors.push(format!("{} salt buckets{each}", self.buckets_each));
        }
        if factors.len() > 1 {
            write!(f, "\nranges: {}", factors.join(" x "))?;
            if product != self.ranges {
                write!(f, " = {product}, joined where they touch")?;
            }
        }
        if salted && self.whole_key_salt {
            return write!(
                f,
                "\nPhoenix's salt hashes the whole key: a query reads 1 bucket instead of {} only \
                 when it fixes every key column (eq, or is_in: 1 bucket a combination)",
                self.buckets_each
            );
        }
        let unfixed: Vec<&str> = self.unfixed_salt_inputs().collect();
        if salted && !unfixed.is_empty() {
            let (them, it) = if unfixed.len() == 1 {
                ("it", "its")
            } else {
                ("them", "their")
            };
            let per = if self.lists.is_empty() {
                ""
            } else {
                " a combination"
            };
            write!(
                f,
                "\nthe salt hashes {}, and {} {} not fixed: fix {them} (eq) or list {it} values \
                 (is_in) to read 1 bucket{per} instead of {}",
                and_list(self.salt_inputs),
                and_list(&unfixed),
                if unfixed.len() == 1 { "is" } else { "are" },
                self.buckets_each
            )?;
        }
        Ok(())
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
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
        self.write_fan_out(f)?;
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
                 and whose {what_field} lie in the range: both on the server on Bigtable \
                 (RowKeyRegexFilter), the pattern on the server and the range in the client \
                 on HBase natively (FuzzyRowFilter), both in the client over HBase's Thrift 1 \
                 and on MemStore"
            )?;
        } else if let Some((len, free)) = self.filter {
            write!(
                f,
                "\nreads {what}, keeping the rows whose key matches a pattern ({free} of its \
                 {len} bytes free): on the server on Bigtable (RowKeyRegexFilter) and on HBase \
                 natively (FuzzyRowFilter), in the client over HBase's Thrift 1 and on MemStore"
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
