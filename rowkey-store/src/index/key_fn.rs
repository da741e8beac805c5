//! [`IndexKeyFn`]: how one index keys a record, below the writes and
//! the unique claims that both key records by it.

use rowkey_core::{EncodeError, SparseIndexOf};

/// How one index keys a record: `X::sparse_index_key`, encoded; `None`
/// when the (sparse) index holds no row for it.
pub(crate) type IndexKeyFn<R> = fn(&R) -> Result<Option<Vec<u8>>, EncodeError>;

/// `X`'s [`IndexKeyFn`].
pub(crate) fn index_key_fn<X: SparseIndexOf<R>, R>() -> IndexKeyFn<R> {
    |record| X::sparse_index_key(record).map(|x| x.to_vec()).transpose()
}
