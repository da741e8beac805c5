//! [`merge_sorted`]: rows of several bucket scans, merged back into key
//! order with the salt prefix ignored (as HBaseWD's distributed scanner
//! does), with an optional limit.

use super::sort_prefix::sort_prefix;
use std::cmp::Ordering;

/// A row whose key a merge compares.
pub trait ScanRow {
    /// The row key.
    fn row_key(&self) -> &[u8];
}

impl ScanRow for Vec<u8> {
    fn row_key(&self) -> &[u8] {
        self
    }
}

impl ScanRow for &[u8] {
    fn row_key(&self) -> &[u8] {
        self
    }
}

impl<K: AsRef<[u8]>, V> ScanRow for (K, V) {
    fn row_key(&self) -> &[u8] {
        self.0.as_ref()
    }
}

/// What a merge sorts `key` by: its bytes from `from` on, then without its
/// first `skip` bytes (the same bytes twice for logical key order, where
/// `from == skip`: the second comparison is reached only on equal keys).
#[inline]
fn order_key(key: &[u8], from: usize, skip: usize) -> (&[u8], &[u8]) {
    (
        key.get(from..).unwrap_or_default(),
        key.get(skip..).unwrap_or_default(),
    )
}

/// Rows of sorted sources in logical key order; see [`merge_sorted`].
///
/// A loser tree: each row costs exactly `log2(sources)` matches (a binary
/// heap's pop and push cost about twice that). Every node holds the first
/// 16 bytes of its head's logical key as one big-endian integer, computed
/// once when the head arrives, so a match is one integer comparison; only equal prefixes (keys alike in
/// their first 16 logical bytes, or ended sources) compare the keys
/// themselves.
pub struct MergeSorted<I: Iterator> {
    sources: Vec<I>,
    /// The next row of each source; `None` once it has ended.
    heads: Vec<Option<I::Item>>,
    /// `tree[0]`: the source whose head comes next; `tree[n]` for
    /// `n >= 1`: the loser of the match at node `n` (leaves are the
    /// sources, at `sources.len()..2 * sources.len()`).
    tree: Vec<Node>,
    skip: usize,
    /// Where the order starts (`skip` for logical key order).
    from: usize,
    /// Largest key first (sources read last key first).
    reversed: bool,
    remaining: Option<usize>,
}

/// A source in the loser tree, with its head's prefix.
#[derive(Clone, Copy)]
struct Node {
    /// The [`sort_prefix`] of the head's logical key; `u128::MAX` for an
    /// ended source (a real key may have it too: the tie goes to
    /// [`beats_exactly`]).
    prefix: u128,
    source: usize,
}

impl<I: Iterator> MergeSorted<I>
where
    I::Item: ScanRow,
{
    /// Source `source` with its current head.
    #[inline]
    fn node(&self, source: usize) -> Node {
        let prefix = match &self.heads[source] {
            // Reversed, the complement orders prefixes largest first.
            Some(row) => {
                let p = sort_prefix(row.row_key().get(self.from..).unwrap_or_default());
                if self.reversed {
                    !p
                } else {
                    p
                }
            }
            None => u128::MAX,
        };
        Node { prefix, source }
    }

    /// Plays every match from the leaves up.
    fn build(&mut self) {
        let k = self.heads.len();
        if k == 0 {
            return;
        }
        // Leaves at `k..2 * k`; the entries below `k` are overwritten.
        let mut winner: Vec<Node> = (0..2 * k).map(|i| self.node(i % k)).collect();
        for n in (1..k).rev() {
            let (l, r) = (winner[2 * n], winner[2 * n + 1]);
            if beats(&self.heads, (self.from, self.skip, self.reversed), l, r) {
                (winner[n], self.tree[n]) = (l, r);
            } else {
                (winner[n], self.tree[n]) = (r, l);
            }
        }
        // One source: `winner[1]` is its leaf.
        self.tree[0] = winner[1];
    }

    /// Source `leaf` has a new head: replays its matches to the root,
    /// carrying the winner up.
    #[inline]
    fn replay(&mut self, leaf: usize) {
        let k = self.heads.len();
        let mut winner = self.node(leaf);
        let (heads, at, tree) = (
            &self.heads,
            (self.from, self.skip, self.reversed),
            &mut self.tree,
        );
        let mut n = (leaf + k) / 2;
        while n > 0 {
            let node = &mut tree[n];
            if beats(heads, at, *node, winner) {
                core::mem::swap(node, &mut winner);
            }
            n /= 2;
        }
        tree[0] = winner;
    }
}

/// Whether `a`'s head comes before `b`'s: by prefix, else by key (`at`:
/// the merge's `from`, `skip` and direction).
#[inline(always)]
fn beats<T: ScanRow>(heads: &[Option<T>], at: (usize, usize, bool), a: Node, b: Node) -> bool {
    if a.prefix != b.prefix {
        return a.prefix < b.prefix;
    }
    beats_exactly(heads, at, a.source, b.source)
}

/// Whether source `a`'s head comes before source `b`'s, by the whole
/// keys: ended sources come last, equal keys in source order.
#[inline(never)]
fn beats_exactly<T: ScanRow>(
    heads: &[Option<T>],
    (from, skip, reversed): (usize, usize, bool),
    a: usize,
    b: usize,
) -> bool {
    match (&heads[a], &heads[b]) {
        (Some(x), Some(y)) => {
            let kx = order_key(x.row_key(), from, skip);
            let ky = order_key(y.row_key(), from, skip);
            let order = if reversed { ky.cmp(&kx) } else { kx.cmp(&ky) };
            match order {
                Ordering::Less => true,
                Ordering::Greater => false,
                Ordering::Equal => a < b,
            }
        }
        (Some(_), None) => true,
        (None, Some(_)) => false,
        (None, None) => a < b,
    }
}

/// Merges `sources` (each sorted by key, as one bucket's scan returns
/// rows) into one stream sorted by key without its first `skip` bytes (the
/// salt prefix: [`ScanPlan::prefix_len`](super::ScanPlan::prefix_len)),
/// stopping after `limit` rows. Sources must be ascending; sources read
/// last key first merge with [`MergeSorted::reversed`].
///
/// ```
/// use rowkey::scan::merge_sorted;
/// let bucket0 = vec![b"0_a".to_vec(), b"0_d".to_vec()];
/// let bucket1 = vec![b"1_b".to_vec(), b"1_c".to_vec()];
/// let rows: Vec<Vec<u8>> = merge_sorted([bucket0.into_iter(), bucket1.into_iter()], 2, None).collect();
/// assert_eq!(rows, [b"0_a".to_vec(), b"1_b".to_vec(), b"1_c".to_vec(), b"0_d".to_vec()]);
/// ```
pub fn merge_sorted<S>(
    sources: impl IntoIterator<Item = S>,
    skip: usize,
    limit: Option<usize>,
) -> MergeSorted<S::IntoIter>
where
    S: IntoIterator,
    S::Item: ScanRow,
{
    merge_sorted_by_offset(sources, skip, skip, limit)
}

/// [`merge_sorted`] ordering rows by their key bytes from `offset` on,
/// then by the key without its first `skip` bytes: the order of a plan
/// [ordered after its IN-lists](super::ScanPlan::ordered_after_in_lists)
/// (`offset`: its [`merge_offset`](super::ScanPlan::merge_offset)), whose
/// sources are its [ranges](super::ScanPlan::ranges), each read in key
/// order. Each source must be sorted that way (one IN-list combination's
/// range is: its keys agree up to `offset`).
///
/// ```
/// use rowkey::scan::merge_sorted_by_offset;
/// // Two metrics' readings (`m3`, `m5`), then a time: merged by the time.
/// let m3 = vec![b"m3:10".to_vec(), b"m3:40".to_vec()];
/// let m5 = vec![b"m5:20".to_vec(), b"m5:40".to_vec()];
/// let rows: Vec<Vec<u8>> = merge_sorted_by_offset([m3, m5], 0, 3, None).collect();
/// assert_eq!(rows, [&b"m3:10"[..], b"m5:20", b"m3:40", b"m5:40"]);
/// ```
pub fn merge_sorted_by_offset<S>(
    sources: impl IntoIterator<Item = S>,
    skip: usize,
    offset: usize,
    limit: Option<usize>,
) -> MergeSorted<S::IntoIter>
where
    S: IntoIterator,
    S::Item: ScanRow,
{
    merge_in(sources, skip, offset, limit, false)
}

/// [`merge_sorted_by_offset`], largest first when `reversed` (each source
/// then read last key first, as a reversed plan's ranges are).
pub(crate) fn merge_in<S>(
    sources: impl IntoIterator<Item = S>,
    skip: usize,
    offset: usize,
    limit: Option<usize>,
    reversed: bool,
) -> MergeSorted<S::IntoIter>
where
    S: IntoIterator,
    S::Item: ScanRow,
{
    let mut sources: Vec<S::IntoIter> = sources.into_iter().map(IntoIterator::into_iter).collect();
    let heads: Vec<Option<S::Item>> = sources.iter_mut().map(Iterator::next).collect();
    let mut merge = MergeSorted {
        tree: vec![
            Node {
                prefix: u128::MAX,
                source: 0
            };
            heads.len()
        ],
        sources,
        heads,
        skip,
        from: offset,
        reversed,
        remaining: limit,
    };
    merge.build();
    merge
}

impl<I> MergeSorted<I>
where
    I: Iterator,
    I::Item: ScanRow,
{
    /// The same merge, largest key first: for sources each read last key
    /// first (a reversed plan's ranges, a reversed store read).
    ///
    /// ```
    /// use rowkey::scan::merge_sorted;
    /// let bucket0 = vec![b"0_d".to_vec(), b"0_a".to_vec()];
    /// let bucket1 = vec![b"1_c".to_vec(), b"1_b".to_vec()];
    /// let rows: Vec<Vec<u8>> = merge_sorted([bucket0, bucket1], 1, None).reversed().collect();
    /// assert_eq!(rows, [b"0_d".to_vec(), b"1_c".to_vec(), b"1_b".to_vec(), b"0_a".to_vec()]);
    /// ```
    pub fn reversed(mut self) -> Self {
        self.reversed = !self.reversed;
        self.build();
        self
    }
}

impl<I> Iterator for MergeSorted<I>
where
    I: Iterator,
    I::Item: ScanRow,
{
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        if self.remaining == Some(0) {
            return None;
        }
        let w = self.tree.first()?.source;
        let row = self.heads[w].take()?;
        self.heads[w] = self.sources[w].next();
        self.replay(w);
        if let Some(n) = &mut self.remaining {
            *n -= 1;
        }
        Some(row)
    }
}
