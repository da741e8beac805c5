//! [`MergeHeads`]: the one merge of sorted sources in rowkey, and its
//! order and tie rules. [`MergeSorted`](super::MergeSorted) drives it
//! over iterators; rowkey-store drives it over async streams (its
//! `merge_sorted_stream` and the store queries), whose heads arrive when
//! their reads deliver them.

use super::merge::ScanRow;
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
    /// `tree[0]`: the source whose head comes next; `tree[n]` for
    /// `n >= 1`: the loser of the match at node `n` (leaves are the
    /// sources, at `k..2 * k`).
    tree: Vec<Node>,
    /// The tree holds the matches of the current heads. While it does, the
    /// only head not known is the last winner's (it was popped), the one
    /// head whose matches a replay may redo.
    built: bool,
    /// The source popped last, while its next head is awaited.
    popped: Option<usize>,
    order: MergeOrder,
}

impl<T: ScanRow> MergeHeads<T> {
    /// A merge of `sources` sources, every head awaited.
    pub fn new(sources: usize, order: MergeOrder) -> Self {
        MergeHeads {
            heads: (0..sources).map(|_| None).collect(),
            known: vec![false; sources],
            unknown: sources,
            tree: vec![
                Node {
                    prefix: u128::MAX,
                    source: 0
                };
                sources
            ],
            built: false,
            popped: None,
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

    /// Asks `head_of` for the head of every source the merge waits for:
    /// `Some(Some(row))` its next row, `Some(None)` its end, `None` not
    /// ready yet (asked again on the next fill). Returns whether every
    /// head is known, so that [`pop`](Self::pop) can give the next row.
    pub fn fill(&mut self, mut head_of: impl FnMut(usize) -> Option<Option<T>>) -> bool {
        if self.unknown == 0 {
            return true;
        }
        match self.popped {
            // Since the tree was built only the winner's head is awaited.
            Some(source) if self.built => {
                if let Some(head) = head_of(source) {
                    self.set(source, head);
                }
            }
            _ => {
                for source in 0..self.heads.len() {
                    if !self.known[source] {
                        if let Some(head) = head_of(source) {
                            self.set(source, head);
                        }
                    }
                }
            }
        }
        self.unknown == 0
    }

    /// Records `source`'s head; once the tree is built, replays the
    /// matches of the winner just popped.
    fn set(&mut self, source: usize, head: Option<T>) {
        self.heads[source] = head;
        self.known[source] = true;
        self.unknown -= 1;
        if self.built {
            self.popped = None;
            self.replay(source);
        }
    }

    /// The next row and its source; `None` when every source has ended,
    /// or while a head is awaited ([`fill`](Self::fill) returned `false`).
    /// The source's next head is then awaited.
    pub fn pop(&mut self) -> Option<(usize, T)> {
        if self.unknown > 0 {
            return None;
        }
        if !self.built {
            self.build();
        }
        let winner = self.tree.first()?.source;
        // The winner is an ended source only when all have ended.
        let row = self.heads[winner].take()?;
        self.known[winner] = false;
        self.unknown = 1;
        self.popped = Some(winner);
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
        self.heads[winner] = next_of(winner);
        self.replay(winner);
        Some(row)
    }

    /// Source `source` with its current head.
    #[inline]
    fn node(&self, source: usize) -> Node {
        let prefix = match &self.heads[source] {
            Some(row) => self.order.prefix(row.row_key()),
            None => u128::MAX,
        };
        Node { prefix, source }
    }

    /// Plays every match from the leaves up: once per merge (and per
    /// reversal), so out of the per-row path.
    #[cold]
    #[inline(never)]
    fn build(&mut self) {
        self.built = true;
        self.popped = None;
        let k = self.heads.len();
        if k == 0 {
            return;
        }
        // Leaves at `k..2 * k`; the entries below `k` are overwritten.
        let mut winner: Vec<Node> = (0..2 * k).map(|i| self.node(i % k)).collect();
        for n in (1..k).rev() {
            let (l, r) = (winner[2 * n], winner[2 * n + 1]);
            if beats(&self.heads, self.order, l, r) {
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
        let k = self.heads.len();
        let mut winner = self.node(leaf);
        // The order by value: it stays in registers through the loop.
        let (heads, order, tree) = (&self.heads, self.order, &mut self.tree);
        let mut n = (leaf + k) / 2;
        while n > 0 {
            let node = &mut tree[n];
            if beats(heads, order, *node, winner) {
                core::mem::swap(node, &mut winner);
            }
            n /= 2;
        }
        tree[0] = winner;
    }
}

/// Whether `a`'s head comes before `b`'s: by prefix, else by key.
#[inline(always)]
fn beats<T: ScanRow>(heads: &[Option<T>], order: MergeOrder, a: Node, b: Node) -> bool {
    if a.prefix != b.prefix {
        return a.prefix < b.prefix;
    }
    beats_exactly(heads, order, a.source, b.source)
}

/// Whether source `a`'s head comes before source `b`'s, by the whole
/// keys ([`MergeOrder::before`]): ended sources come last, in source
/// order.
#[inline(never)]
fn beats_exactly<T: ScanRow>(heads: &[Option<T>], order: MergeOrder, a: usize, b: usize) -> bool {
    match (&heads[a], &heads[b]) {
        (Some(x), Some(y)) => order.before(x.row_key(), a, y.row_key(), b),
        (Some(_), None) => true,
        (None, Some(_)) => false,
        (None, None) => a < b,
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
