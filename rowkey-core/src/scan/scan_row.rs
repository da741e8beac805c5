//! [`ScanRow`]: what a merge of sorted sources compares, below both the
//! merge ([`merge_sorted`](super::merge_sorted)) and its loser tree
//! ([`MergeHeads`](super::MergeHeads)).

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
