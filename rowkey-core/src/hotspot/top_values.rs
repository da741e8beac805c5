//! [`TopValues`]: the most frequent values of one field among some keys,
//! counted in bounded memory with the Space-Saving algorithm.
//!
//! Why Space-Saving (Metwally, Agrawal and El Abbadi, 2005) and not exact
//! counts up to a cap of distinct values: a cap keeps the values seen
//! first, so a heavy value that starts late (a sample sorted by time, a
//! workspace that grew last week) would go uncounted once the cap is full
//! of timestamps. Space-Saving keeps `capacity` counters and, for a new
//! value when they are all taken, gives it the smallest counter, plus one.
//! So, after `n` values:
//!
//! - every value seen more than `n / capacity` times holds a counter;
//! - a counter's count is never below its value's true count, and at most
//!   its `over` above it, where `over <= n / capacity` (the count it
//!   inherited);
//! - with no more distinct values than counters, every count is exact.
//!
//! Misra-Gries would give the same guarantee from below; Space-Saving's
//! per-value `over` lets a report say exactly how sure each share is.

use std::collections::HashMap;

/// Counters a [`TopValues`] keeps: any value over 1/64 (1.6%) of the
/// keys counted is among them, and no count is more than that share
/// above the truth.
pub const TRACKED_VALUES: usize = 64;

/// The most frequent values of one field, as text, in bounded memory.
///
/// ```
/// use rowkey::hotspot::TopValues;
/// let mut t = TopValues::new(2);
/// for v in ["a", "b", "a", "c", "a"] {
///     t.add(v);
/// }
/// let top = t.top(1);
/// assert_eq!((top[0].value, top[0].count, top[0].over), ("a", 3, 0));
/// assert_eq!(t.seen(), 5);
/// assert!(!t.is_exact()); // "c" took the place of "b"
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopValues {
    capacity: usize,
    counters: Vec<Counter>,
    /// Where each counted value's counter is.
    index: HashMap<String, usize>,
    seen: u64,
    /// A value took over another's counter: counts may be over.
    evicted: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Counter {
    value: String,
    count: u64,
    over: u64,
}

/// A counted value: its text, its count, and how far over its true count
/// that count may be (`0`: exact).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counted<'a> {
    /// The value, as `rowkey decode` shows it.
    pub value: &'a str,
    /// Times counted: the true count or above it.
    pub count: u64,
    /// At most this much above the true count.
    pub over: u64,
}

impl Counted<'_> {
    /// The fewest times the value was surely seen.
    pub fn at_least(&self) -> u64 {
        self.count - self.over
    }
}

impl TopValues {
    /// Counts with `capacity` counters (at least one).
    pub fn new(capacity: usize) -> Self {
        TopValues {
            capacity: capacity.max(1),
            counters: Vec::new(),
            index: HashMap::new(),
            seen: 0,
            evicted: false,
        }
    }

    /// Counts one occurrence of `value`.
    pub fn add(&mut self, value: &str) {
        self.seen += 1;
        if let Some(&i) = self.index.get(value) {
            self.counters[i].count += 1;
            return;
        }
        if self.counters.len() < self.capacity {
            self.index.insert(value.to_string(), self.counters.len());
            self.counters.push(Counter {
                value: value.to_string(),
                count: 1,
                over: 0,
            });
            return;
        }
        // Every counter is taken: the least counted value gives its
        // counter up, and the new one inherits its count as possible
        // over-count. A linear scan: `capacity` is small.
        let Some((i, min)) = self
            .counters
            .iter()
            .enumerate()
            .min_by_key(|(_, c)| c.count)
            .map(|(i, c)| (i, c.count))
        else {
            return;
        };
        self.evicted = true;
        let old = std::mem::replace(
            &mut self.counters[i],
            Counter {
                value: value.to_string(),
                count: min + 1,
                over: min,
            },
        );
        self.index.remove(&old.value);
        self.index.insert(value.to_string(), i);
    }

    /// Values counted, all told.
    pub fn seen(&self) -> u64 {
        self.seen
    }

    /// Whether every count is exact: no more distinct values came than
    /// there are counters.
    pub fn is_exact(&self) -> bool {
        !self.evicted
    }

    /// Counters kept (at most the capacity).
    pub fn len(&self) -> usize {
        self.counters.len()
    }

    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.counters.is_empty()
    }

    /// How far over any count may be, and the most a value without a
    /// counter can have been seen: the smallest count once every counter
    /// is taken, else `0`.
    pub fn error_bound(&self) -> u64 {
        match self.evicted {
            true => self.counters.iter().map(|c| c.count).min().unwrap_or(0),
            false => 0,
        }
    }

    /// The `n` most counted values, most first (ties by value, so the
    /// order is the same on every run).
    pub fn top(&self, n: usize) -> Vec<Counted<'_>> {
        let mut all: Vec<Counted<'_>> = self
            .counters
            .iter()
            .map(|c| Counted {
                value: &c.value,
                count: c.count,
                over: c.over,
            })
            .collect();
        all.sort_by(|a, b| b.count.cmp(&a.count).then(a.value.cmp(b.value)));
        all.truncate(n);
        all
    }

    /// The most times `value` can have been counted: its count, or, with
    /// no counter, [`error_bound`](Self::error_bound).
    pub fn at_most(&self, value: &str) -> u64 {
        match self.index.get(value) {
            Some(&i) => self.counters[i].count,
            None => self.error_bound(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counted(t: &TopValues) -> Vec<(String, u64, u64)> {
        t.top(usize::MAX)
            .iter()
            .map(|c| (c.value.to_string(), c.count, c.over))
            .collect()
    }

    #[test]
    fn hotspot_top_values_are_exact_within_capacity() {
        let mut t = TopValues::new(4);
        for v in ["x", "y", "x", "z", "x", "y"] {
            t.add(v);
        }
        assert!(t.is_exact());
        assert_eq!(t.error_bound(), 0);
        let s = |v: &str, n| (v.to_string(), n, 0);
        assert_eq!(counted(&t), [s("x", 3), s("y", 2), s("z", 1)]);
        assert_eq!(t.at_most("w"), 0);
        assert_eq!(t.seen(), 6);
    }

    #[test]
    fn hotspot_top_values_memory_is_bounded_and_heavy_values_kept() {
        // 100,000 distinct values, then one heavy value arriving last: a
        // first-come cap would have no room for it.
        let mut t = TopValues::new(TRACKED_VALUES);
        for i in 0..100_000 {
            t.add(&format!("ts-{i}"));
        }
        for _ in 0..5_000 {
            t.add("megacorp");
        }
        assert_eq!(t.len(), TRACKED_VALUES);
        assert_eq!(t.index.len(), TRACKED_VALUES);
        assert!(!t.is_exact());
        let n = t.seen();
        assert_eq!(n, 105_000);
        let top = t.top(1)[0];
        assert_eq!(top.value, "megacorp");
        // The guarantees: never under, over by at most n / capacity.
        assert!(top.count >= 5_000 && top.at_least() <= 5_000);
        assert!(top.over <= n / TRACKED_VALUES as u64);
        assert!(t.error_bound() <= n / TRACKED_VALUES as u64);
        // Every other value was seen once: none is claimed surely more.
        assert!(t.top(usize::MAX)[1..].iter().all(|c| c.at_least() <= 1));
    }

    #[test]
    fn hotspot_top_values_error_bound_holds_on_a_skewed_stream() {
        // Value i appears i times, interleaved: true counts are known.
        let mut truth: HashMap<String, u64> = HashMap::new();
        let mut t = TopValues::new(8);
        for round in 0..40u64 {
            for v in round..40 {
                let name = format!("v{v}");
                t.add(&name);
                *truth.entry(name).or_default() += 1;
            }
        }
        let bound = t.seen() / 8;
        for c in t.top(usize::MAX) {
            let real = truth[c.value];
            assert!(c.count >= real && c.at_least() <= real, "{c:?} vs {real}");
            assert!(c.over <= bound);
        }
        for (v, &real) in &truth {
            if real > bound {
                assert!(t.index.contains_key(v), "{v}: {real} > {bound}");
            }
        }
    }

    #[test]
    fn hotspot_top_values_capacity_of_zero_is_one() {
        let mut t = TopValues::new(0);
        t.add("a");
        t.add("b");
        assert_eq!(t.len(), 1);
        assert_eq!(
            t.top(5)[0],
            Counted {
                value: "b",
                count: 2,
                over: 1
            }
        );
    }
}
