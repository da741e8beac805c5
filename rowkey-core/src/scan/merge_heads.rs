//! [`MergeHeads`]: the one merge of sorted sources in rowkey, and its
//! order and tie rules. [`MergeSorted`](super::MergeSorted) drives it
//! over iterators; rowkey-store drives it over async streams (its
//! `merge_sorted_stream` and the store queries), whose heads arrive when
//! their reads deliver them.

use super::scan_row::ScanRow;
use super::sort_prefix::sort_prefix;
use std::cmp::Ordering;

/// The order of a merge: rows by their key bytes from `from` on, then by
/// the key without its first `skip` bytes; largest first when `reversed`;
/// equal keys in source order (the lower source first), both ways.
///
/// `from == skip` is logical key order (the salt prefix ignored): the
/// second comparison is then reached only on equal keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MergeOrder {
    /// Leading bytes that are not part of the logical key: a salt or hash
    /// prefix ([`ScanPlan::prefix_len`](super::ScanPlan::prefix_len)).
    pub skip: usize,
    /// Where the order starts: `skip`, or a plan's
    /// [`merge_offset`](super::ScanPlan::merge_offset).
    pub from: usize,
    /// Largest key first (sources each read last key first).
    pub reversed: bool,
}

impl MergeOrder {
    /// Logical key order: the key without its first `skip` bytes.
    pub fn logical(skip: usize) -> Self {
        MergeOrder {
            skip,
            from: skip,
            reversed: false,
        }
    }

    /// Whether the head `a` of source `a_source` comes before the head
    /// `b` of source `b_source`: the tie rules every merge follows.
    #[inline]
    pub fn before(&self, a: &[u8], a_source: usize, b: &[u8], b_source: usize) -> bool {
        let (ka, kb) = (self.order_key(a), self.order_key(b));
        let order = if self.reversed {
            kb.cmp(&ka)
        } else {
            ka.cmp(&kb)
        };
        match order {
            Ordering::Less => true,
            Ordering::Greater => false,
            Ordering::Equal => a_source < b_source,
        }
    }

    /// What the merge sorts `key` by.
    #[inline]
    fn order_key<'k>(&self, key: &'k [u8]) -> (&'k [u8], &'k [u8]) {
        (
            key.get(self.from..).unwrap_or_default(),
            key.get(self.skip..).unwrap_or_default(),
        )
    }

    /// A key's [`sort_prefix`] from `from` on, complemented when reversed
    /// so that a smaller prefix always comes first.
    #[inline]
    fn prefix(&self, key: &[u8]) -> u128 {
        let p = sort_prefix(key.get(self.from..).unwrap_or_default());
        if self.reversed {
            !p
        } else {
            p
        }
    }
}

/// A source in the loser tree, with its head's prefix.
#[derive(Clone, Copy)]
struct Node {
    /// The [`MergeOrder::prefix`] of the head's key; `u128::MAX` for an
    /// ended source (a real key may have it too: the tie goes to
    /// [`beats_exactly`]).
    prefix: u128,
    source: usize,
}

/// The heads of `k` sorted sources, and which comes next by a
/// [`MergeOrder`]: a loser tree.
///
/// Each row costs exactly `log2(k)` matches (a binary heap's pop and push
/// cost about twice that). Every node holds the first 16 bytes of its
/// head's ordered key as one integer, computed once when the head
/// arrives, so a match is one integer comparison; only equal prefixes
/// (keys alike in their first 16 bytes, or ended sources) compare the
/// keys themselves.
///
/// Heads are handed in as sources deliver them. A merge over sources that
/// may not be ready (async streams) [`fill`](Self::fill)s the heads it
/// waits for, then [`pop`](Self::pop)s the next row; one over iterators
/// [`pop_with`](Self::pop_with)s, refilling from the winner's source at
/// once.
///
/// A source not read yet may be given a [bound](Self::set_bound): the
/// least key it can yield. Until its first head is known it stands in the
/// merge at that key, so rows before it come out without waiting for it:
/// a query over ranges that do not overlap (an IN-list in key order)
/// reads them one after another instead of all before its first row.
///
/// ```
/// use rowkey::scan::{MergeHeads, MergeOrder};
/// // Two buckets (prefix byte 0 and 1): logical order from byte 1 on.
/// let mut sources = [vec![&b"0a"[..], b"0d"].into_iter(), vec![&b"1b"[..]].into_iter()];
/// let mut heads = MergeHeads::new(2, MergeOrder::logical(1));
/// let mut out = Vec::new();
/// loop {
///     assert!(heads.fill(|s| Some(sources[s].next())));
///     match heads.pop() {
///         Some((_, row)) => out.push(row),
///         None => break,
///     }
/// }
/// assert_eq!(out, [&b"0a"[..], b"1b", b"0d"]);
/// ```
pub struct MergeHeads<T> {
    /// The head of each source; `None` once it has ended (or while it is
    /// awaited, see `known`).
    heads: Vec<Option<T>>,
    /// Whether each source's head is known: a row, or its end.
    known: Vec<bool>,
    /// How many heads are not known.
    unknown: usize,
    /// The bound of each source whose first head is not known yet, where
    /// one was set ([`set_bound`](Self::set_bound)); empty until then.
    bounds: Vec<Option<Box<[u8]>>>,
    /// `tree[0]`: the source whose head comes next; `tree[n]` for
    /// `n >= 1`: the loser of the match at node `n` (leaves are the
    /// sources, at `k..2 * k`).
    tree: Vec<Node>,
    /// The tree holds the matches of the current heads and bounds: a
    /// source whose head becomes known replays its own matches.
    built: bool,
    order: MergeOrder,
}

impl<T: ScanRow> MergeHeads<T> {
    /// A merge of `sources` sources, every head awaited.
    pub fn new(sources: usize, order: MergeOrder) -> Self {
        MergeHeads {
            heads: (0..sources).map(|_| None).collect(),
            known: vec![false; sources],
            unknown: sources,
            bounds: Vec::new(),
            tree: vec![
                Node {
                    prefix: u128::MAX,
                    source: 0
                };
                sources
            ],
            built: false,
            order,
        }
    }

    /// The merge's order.
    pub fn order(&self) -> MergeOrder {
        self.order
    }

    /// The same heads merged in the other direction (for sources read
    /// last key first): the matches are played again before the next pop.
    pub fn reverse(&mut self) {
        self.order.reversed = !self.order.reversed;
        self.built = false;
    }

    /// Whether the merge waits for `source`'s head.
    pub fn awaits(&self, source: usize) -> bool {
        self.known.get(source).is_some_and(|known| !known)
    }

    /// Whether the merge holds a row of `source` (its head, known).
    pub fn holds_row(&self, source: usize) -> bool {
        self.heads.get(source).is_some_and(Option::is_some)
    }

    /// Sets the least key, in the merge's order, that `source` may yield
    /// (the start of its range; its end when the merge is reversed), until
    /// its first head is known. The merge then gives the rows of other
    /// sources that come before it without waiting for `source`. Keys
    /// compare as heads do ([`MergeOrder`]); a bound must not come after
    /// any row of its source, or rows come out of order. Ignored once the
    /// source's head is known, and for a source out of range.
    ///
    /// ```
    /// use rowkey::scan::{MergeHeads, MergeOrder};
    /// // Two ranges that do not overlap: "a.." and "m..".
    /// let mut heads = MergeHeads::<Vec<u8>>::new(2, MergeOrder::logical(0));
    /// heads.set_bound(0, b"a");
    /// heads.set_bound(1, b"m");
    /// // Source 0's rows come out while source 1 is not read at all.
    /// assert!(heads.fill(|s| (s == 0).then(|| Some(b"b".to_vec()))));
    /// assert_eq!(heads.pop(), Some((0, b"b".to_vec())));
    /// assert!(heads.fill(|s| (s == 0).then_some(None)) == false);
    /// assert!(heads.awaits(1));
    /// assert!(heads.fill(|s| (s == 1).then(|| Some(b"n".to_vec()))));
    /// assert_eq!(heads.pop(), Some((1, b"n".to_vec())));
    /// ```
    pub fn set_bound(&mut self, source: usize, bound: &[u8]) {
        if self.known.get(source) != Some(&false) {
            return;
        }
        if self.bounds.is_empty() {
            self.bounds = vec![None; self.heads.len()];
        }
        self.bounds[source] = Some(bound.into());
        if self.built {
            self.replay(source);
        }
    }

    /// The bound of `source` while its first head is not known.
    pub fn bound(&self, source: usize) -> Option<&[u8]> {
        self.bounds.get(source)?.as_deref()
    }

    /// Asks `head_of` for the heads the merge waits for: `Some(Some(row))`
    /// a source's next row, `Some(None)` its end, `None` not ready yet
    /// (asked again on the next fill). Returns whether the next row is
    /// known, so that [`pop`](Self::pop) can give it.
    ///
    /// The first time, every source is asked; the merge can go on once
    /// every head is known or [bounded](Self::set_bound). From then on
    /// only the source that comes next is asked, until one with a known
    /// head does: after a [`pop`](Self::pop), the popped source; a
    /// bounded source once its bound comes first.
    pub fn fill(&mut self, mut head_of: impl FnMut(usize) -> Option<Option<T>>) -> bool {
        if self.unknown == 0 {
            return true;
        }
        if !self.built {
            for source in 0..self.heads.len() {
                if !self.known[source] {
                    if let Some(head) = head_of(source) {
                        self.set(source, head);
                    }
                }
            }
            if self.unknown > 0 && (0..self.heads.len()).any(|s| self.unbounded(s)) {
                return false;
            }
            self.build();
        }
        loop {
            let Some(next) = self.tree.first().map(|n| n.source) else {
                return true;
            };
            if self.known[next] {
                return true;
            }
            match head_of(next) {
                Some(head) => self.set(next, head),
                None => return false,
            }
        }
    }

    /// Whether `source`'s head is not known and has no bound.
    fn unbounded(&self, source: usize) -> bool {
        !self.known[source] && self.bound(source).is_none()
    }

    /// Records `source`'s head; once the tree is built, replays the
    /// matches of the winner just popped.
    fn set(&mut self, source: usize, head: Option<T>) {
        self.heads[source] = head;
        self.known[source] = true;
        self.unknown -= 1;
        if let Some(bound) = self.bounds.get_mut(source) {
            *bound = None;
        }
        if self.built {
            self.replay(source);
        }
    }

    /// The next row and its source; `None` when every source has ended,
    /// or while the head that comes next is awaited ([`fill`](Self::fill)
    /// returned `false`). The source's next head is then awaited.
    pub fn pop(&mut self) -> Option<(usize, T)> {
        if !self.built {
            if self.unknown > 0 {
                return None;
            }
            self.build();
        }
        let root = self.tree.first_mut()?;
        let winner = root.source;
        if !self.known[winner] {
            return None;
        }
        // The winner is an ended source only when all have ended.
        let row = self.heads[winner].take()?;
        self.known[winner] = false;
        self.unknown += 1;
        // Awaited with no bound, it comes before every other head (it came
        // before them with its row): it stays the winner until its next
        // head replays its matches.
        root.prefix = 0;
        Some((winner, row))
    }

    /// The next row, the winner's source refilled at once by `next_of`
    /// (an iterator's `next`); `None` when every source has ended. Every
    /// head must be known, as after a [`fill`](Self::fill) that returned
    /// `true`: `None` otherwise.
    #[inline]
    pub fn pop_with(&mut self, next_of: impl FnOnce(usize) -> Option<T>) -> Option<T> {
        if self.unknown > 0 {
            return None;
        }
        if !self.built {
            self.build();
        }
        let winner = self.tree.first()?.source;
        let row = self.heads[winner].take()?;
        let next = next_of(winner);
        // Known, as every head is here.
        let prefix = match &next {
            Some(row) => self.order.prefix(row.row_key()),
            None => u128::MAX,
        };
        self.heads[winner] = next;
        self.replay_from(
            winner,
            Node {
                prefix,
                source: winner,
            },
        );
        Some(row)
    }

    /// Source `source` with its current head.
    #[inline]
    fn node(&self, source: usize) -> Node {
        let prefix = match self.slots().view(source) {
            View::Key(key) => self.order.prefix(key),
            View::Ended => u128::MAX,
            View::Unbounded => 0,
        };
        Node { prefix, source }
    }

    /// What the matches compare: heads, whether known, bounds.
    #[inline(always)]
    fn slots(&self) -> Slots<'_, T> {
        Slots {
            heads: &self.heads,
            known: &self.known,
            bounds: &self.bounds,
        }
    }

    /// Plays every match from the leaves up: once per merge (and per
    /// reversal), so out of the per-row path.
    #[cold]
    #[inline(never)]
    fn build(&mut self) {
        self.built = true;
        let k = self.heads.len();
        if k == 0 {
            return;
        }
        // Leaves at `k..2 * k`; the entries below `k` are overwritten.
        let mut winner: Vec<Node> = (0..2 * k).map(|i| self.node(i % k)).collect();
        for n in (1..k).rev() {
            let (l, r) = (winner[2 * n], winner[2 * n + 1]);
            if beats(&self.slots(), self.order, l, r) {
                (winner[n], self.tree[n]) = (l, r);
            } else {
                (winner[n], self.tree[n]) = (r, l);
            }
        }
        // One source: `winner[1]` is its leaf.
        self.tree[0] = winner[1];
    }

    /// Source `leaf`, the last winner, has a new head: replays its matches
    /// to the root, carrying the winner up.
    #[inline]
    fn replay(&mut self, leaf: usize) {
        // A known head (every replay of a pop): its prefix without asking
        // whether it is known or bounded, on the per-row path.
        let winner = match (self.known[leaf], &self.heads[leaf]) {
            (true, Some(row)) => Node {
                prefix: self.order.prefix(row.row_key()),
                source: leaf,
            },
            (true, None) => Node {
                prefix: u128::MAX,
                source: leaf,
            },
            (false, _) => self.node(leaf),
        };
        self.replay_from(leaf, winner);
    }

    /// Replays the matches of `leaf`, whose node is now `winner`.
    #[inline]
    fn replay_from(&mut self, leaf: usize, mut winner: Node) {
        let k = self.heads.len();
        // The order by value: it stays in registers through the loop; the
        // sources are looked at only on equal prefixes.
        let (heads, known, bounds) = (&self.heads[..], &self.known[..], &self.bounds[..]);
        let (order, tree) = (self.order, &mut self.tree);
        let mut n = (leaf + k) / 2;
        while n > 0 {
            let node = &mut tree[n];
            if node.prefix < winner.prefix
                || (node.prefix == winner.prefix
                    && beats_exactly(
                        &Slots {
                            heads,
                            known,
                            bounds,
                        },
                        order,
                        node.source,
                        winner.source,
                    ))
            {
                core::mem::swap(node, &mut winner);
            }
            n /= 2;
        }
        tree[0] = winner;
    }
}

/// The sources as the matches see them.
struct Slots<'a, T> {
    heads: &'a [Option<T>],
    known: &'a [bool],
    bounds: &'a [Option<Box<[u8]>>],
}

impl<T> Clone for Slots<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Slots<'_, T> {}

/// Where a source stands in the merge.
enum View<'a> {
    /// Awaited with no bound: before every other source.
    Unbounded,
    /// Its head's key, or its bound while its first head is awaited.
    Key(&'a [u8]),
    /// Ended: after every other source.
    Ended,
}

impl<'a, T: ScanRow> Slots<'a, T> {
    #[inline(always)]
    fn view(self, source: usize) -> View<'a> {
        if self.known[source] {
            return match &self.heads[source] {
                Some(row) => View::Key(row.row_key()),
                None => View::Ended,
            };
        }
        match self.bounds.get(source).and_then(|b| b.as_deref()) {
            Some(bound) => View::Key(bound),
            None => View::Unbounded,
        }
    }
}

/// Whether `a`'s head comes before `b`'s: by prefix, else by key.
#[inline(always)]
fn beats<T: ScanRow>(slots: &Slots<'_, T>, order: MergeOrder, a: Node, b: Node) -> bool {
    if a.prefix != b.prefix {
        return a.prefix < b.prefix;
    }
    beats_exactly(slots, order, a.source, b.source)
}

/// Whether source `a`'s head comes before source `b`'s, by the whole
/// keys ([`MergeOrder::before`]): sources awaited with no bound come
/// first and ended sources last, each in source order.
#[inline(never)]
fn beats_exactly<T: ScanRow>(slots: &Slots<'_, T>, order: MergeOrder, a: usize, b: usize) -> bool {
    match (slots.view(a), slots.view(b)) {
        (View::Key(x), View::Key(y)) => order.before(x, a, y, b),
        (View::Unbounded, View::Unbounded) | (View::Ended, View::Ended) => a < b,
        (View::Unbounded, _) | (_, View::Ended) => true,
        (_, View::Unbounded) | (View::Ended, _) => false,
    }
}

impl<T> std::fmt::Debug for MergeHeads<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MergeHeads")
            .field("sources", &self.heads.len())
            .field("awaited", &self.unknown)
            .field("order", &self.order)
            .finish()
    }
}

#[cfg(test)]
#[path = "merge_heads_tests.rs"]
mod tests;
