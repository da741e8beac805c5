//! Checking a finished re-key: counts on both sides, and spot checks of
//! rows mapped again and read from the target.

use super::run::read_batch;
use super::{Rekey, RekeyError};
use crate::{Cell, Store, StoreExt};

/// The most mismatched keys a verification keeps.
const KEPT: usize = 16;

/// What [`Rekey::verify_table`] and [`Rekey::verify_in_place`] found.
///
/// ```
/// use rowkey::store::RekeyVerification;
/// let v = RekeyVerification { expected: 3, found: 2, ..Default::default() };
/// assert!(!v.is_ok()); // a row is missing
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RekeyVerification {
    /// Rows the mapping gives a new row for, read from the source (in
    /// place: the new rows the run reported).
    pub expected: u64,
    /// New-layout rows in the target.
    pub found: u64,
    /// Old-layout rows still in the table (in place; 0 for a new table).
    pub old_left: u64,
    /// Rows mapped again and compared with the target's.
    pub checked: u64,
    /// Keys of spot-checked rows the target lacks or holds otherwise (at
    /// most 16); index keys whose row is missing or points elsewhere.
    pub mismatched: Vec<Vec<u8>>,
    /// Index rows the new records have, over every index table
    /// ([`Rekey::to_indexed_table`]; 0 otherwise).
    pub index_rows_expected: u64,
    /// Rows the index tables hold.
    pub index_rows_found: u64,
}

impl RekeyVerification {
    /// Every expected row is there (and index row), nothing else, no old
    /// row is left and every spot check matched.
    pub fn is_ok(&self) -> bool {
        self.expected == self.found
            && self.index_rows_expected == self.index_rows_found
            && self.old_left == 0
            && self.mismatched.is_empty()
    }
}

fn sorted(mut cells: Vec<Cell>) -> Vec<Cell> {
    cells.sort_by(|a, b| (&a.family, &a.qualifier).cmp(&(&b.family, &b.qualifier)));
    cells
}

/// Counts the rows of `store` that `keep` keeps, a batch at a time.
async fn count<S: Store>(
    store: &S,
    batch: usize,
    keep: impl Fn(&[u8]) -> bool,
) -> Result<u64, RekeyError> {
    let (mut n, mut last) = (0, None);
    loop {
        let rows = read_batch(store, last.as_deref(), batch).await?;
        let Some(end) = rows.last() else {
            return Ok(n);
        };
        last = Some(end.key.clone());
        n += rows.iter().filter(|r| keep(&r.key)).count() as u64;
    }
}

impl Rekey<'_> {
    /// After [`to_table`](Self::to_table): the source's mapped rows
    /// against the target's new rows, every `every`-th one (at least 1)
    /// mapped again and compared with the target's row, cell by cell.
    pub async fn verify_table<S: Store, T: Store>(
        &self,
        source: &S,
        target: &T,
        every: u64,
    ) -> Result<RekeyVerification, RekeyError> {
        let mut v = RekeyVerification::default();
        let (mut last, mut seen) = (None, 0u64);
        loop {
            let rows = read_batch(source, last.as_deref(), self.batch).await?;
            let Some(end) = rows.last() else { break };
            last = Some(end.key.clone());
            for row in rows.iter().filter(|r| self.mapping.is_old(&r.key)) {
                let map_error = |why| RekeyError::Map {
                    key: row.key.clone(),
                    why,
                };
                let Some(new) = self.mapping.map(row).map_err(map_error)? else {
                    continue;
                };
                v.expected += 1;
                seen += 1;
                if seen % every.max(1) != 0 {
                    continue;
                }
                v.checked += 1;
                let stored = target.read_row(&new.key).await?;
                if stored.map(|r| sorted(r.cells)) != Some(sorted(new.cells))
                    && v.mismatched.len() < KEPT
                {
                    v.mismatched.push(new.key);
                }
            }
        }
        v.found = count(target, self.batch, |k| self.mapping.is_new(k)).await?;
        Ok(v)
    }

    /// After [`in_place`](Self::in_place): no old row left, and the
    /// table's new rows are the `written` the run reported.
    pub async fn verify_in_place<S: Store>(
        &self,
        table: &S,
        written: u64,
    ) -> Result<RekeyVerification, RekeyError> {
        let m = self.mapping;
        Ok(RekeyVerification {
            expected: written,
            found: count(table, self.batch, |k| m.is_new(k) && !m.is_old(k)).await?,
            old_left: count(table, self.batch, |k| m.is_old(k)).await?,
            ..RekeyVerification::default()
        })
    }
}
