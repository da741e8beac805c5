//! Table guards: which layout a table's keys were written with, and
//! typed access that refuses a table of another layout (see
//! [`LayoutRegistry`] for where and how).

mod index;
mod table;

pub use index::CheckedIndexedStore;
pub use table::CheckedTable;

use crate::{
    Cell, CellCheck, CellCondition, ConditionalWrite, Row, RowEdit, Store, StoreError, StoreExt,
};
use rowkey_core::layout::{diff, Fingerprint};
use rowkey_core::Layout;

/// The column family of a registry's rows.
pub const LAYOUT_FAMILY: &str = "l";
/// The qualifier of a registry row's layout JSON.
pub const LAYOUT_JSON: &[u8] = b"json";
/// The qualifier of a registry row's fingerprint (16 hex digits).
pub const LAYOUT_FINGERPRINT: &[u8] = b"fingerprint";

/// A layout recorded for a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedLayout {
    /// The layout, read back from its JSON.
    pub layout: &'static Layout,
    /// Its fingerprint as recorded.
    pub fingerprint: Fingerprint,
}

/// The registry of guarded tables' layouts: which layout each table's
/// keys were written with, for [`CheckedTable`] and
/// [`CheckedIndexedStore`], which refuse a table of another layout
/// before they read or write a row of it.
///
/// **Where the layout is recorded.** In a *registry*: a table of its own
/// (any [`Store`]: a second [`MemStore`](crate::MemStore), a Bigtable
/// table with column family [`LAYOUT_FAMILY`]), one row per guarded
/// table, keyed by the table's name, holding the layout's JSON
/// ([`Layout::to_json`]) and its [`Fingerprint`]. Not a reserved row of
/// the guarded table itself: a key can start with any byte and a plan
/// with a free first field reads from the table's first row to its last,
/// so no row of the table is out of every plan's reach, and a reader
/// without the guard would meet a row that is not a key. One registry
/// serves many tables; [`LayoutRegistry::record`] writes a row after a
/// re-key.
///
/// **What passes.** A table with no recorded layout (it is recorded on
/// the first write), or one whose recorded layout reads as the key's
/// does ([`diff`](rowkey_core::layout::diff()) says
/// [`reads_as_before`](rowkey_core::layout::LayoutDiff::reads_as_before):
/// the same layout, renamed fields, an appended variant). Anything else
/// is [`StoreError::LayoutMismatch`], with the diff.
///
/// **The first writer.** A table's first layout is recorded with a
/// conditional write ([`Store::check_and_write`]: the layout's JSON cell
/// set only where the row has none), so of two writers opening an
/// unrecorded table with different layouts at once, exactly one records
/// its layout and the other is refused with the diff. The registry's
/// store must offer conditional writes of one cell (every store here
/// does); one that refuses them makes the first write fail with its
/// [`StoreError::Unsupported`], never a race. The fingerprint cell is
/// written after the JSON (HBase's Thrift 1 gateway sets one cell per
/// conditional write); a record read between the two reads as its
/// JSON's fingerprint.
///
/// ```
/// use rowkey::store::{LayoutRegistry, MemStore};
/// use rowkey::RowKey;
/// #[derive(RowKey)] struct Op { uid: u64, #[desc_ts] at: i64 }
/// # futures::executor::block_on(async {
/// let registry = LayoutRegistry::new(MemStore::new());
/// assert!(registry.recorded("ops").await?.is_none());
/// registry.check_or_record("ops", Op::layout()).await?;
/// let recorded = registry.recorded("ops").await?.unwrap();
/// assert_eq!(recorded.fingerprint, Op::layout().fingerprint());
/// # Ok::<(), rowkey::store::StoreError>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct LayoutRegistry<M> {
    store: M,
}

impl<M: Store> LayoutRegistry<M> {
    /// A registry in `store`'s table (on Bigtable: with column family
    /// [`LAYOUT_FAMILY`]).
    pub fn new(store: M) -> Self {
        LayoutRegistry { store }
    }

    /// The registry's own store.
    pub fn store(&self) -> &M {
        &self.store
    }

    /// The layout recorded for `table`, if any. A record that is not a
    /// layout rowkey wrote is [`StoreError::BadLayoutRecord`].
    pub async fn recorded(&self, table: &str) -> Result<Option<RecordedLayout>, StoreError> {
        let Some(row) = self.store.read_row(table.as_bytes()).await? else {
            return Ok(None);
        };
        let bad = |why: String| StoreError::BadLayoutRecord {
            table: table.to_string(),
            why,
        };
        let text = |q: &[u8]| {
            let v = row.value(LAYOUT_FAMILY, q).ok_or_else(|| {
                bad(format!(
                    "no cell {LAYOUT_FAMILY}:{}",
                    String::from_utf8_lossy(q)
                ))
            })?;
            String::from_utf8(v.to_vec()).map_err(|_| bad("a cell that is not UTF-8".into()))
        };
        let layout = Layout::from_json(&text(LAYOUT_JSON)?).map_err(|e| bad(e.to_string()))?;
        // A first record between its two writes has no fingerprint yet.
        let fingerprint: Fingerprint = match row.value(LAYOUT_FAMILY, LAYOUT_FINGERPRINT) {
            None => layout.fingerprint(),
            Some(_) => text(LAYOUT_FINGERPRINT)?.parse().map_err(bad)?,
        };
        if fingerprint != layout.fingerprint() {
            return Err(bad(format!(
                "its fingerprint {fingerprint} is not its layout's ({})",
                layout.fingerprint()
            )));
        }
        Ok(Some(RecordedLayout {
            layout,
            fingerprint,
        }))
    }

    /// Records `layout` for `table`, replacing what was recorded (after a
    /// re-key moved the table's rows to it).
    pub async fn record(&self, table: &str, layout: &Layout) -> Result<(), StoreError> {
        let cells = vec![
            Cell::new(LAYOUT_FAMILY, LAYOUT_JSON, layout.to_json()),
            Cell::new(
                LAYOUT_FAMILY,
                LAYOUT_FINGERPRINT,
                layout.fingerprint().to_string(),
            ),
        ];
        self.store
            .write_rows(vec![Row::new(table.as_bytes().to_vec(), cells)])
            .await
    }

    /// Refuses `layout` for `table` when the recorded layout does not
    /// read as it does; `Ok(true)` when one is recorded.
    pub async fn check(&self, table: &str, layout: &Layout) -> Result<bool, StoreError> {
        match self.recorded(table).await? {
            None => Ok(false),
            Some(r) => {
                let d = diff(r.layout, layout);
                if d.reads_as_before() {
                    Ok(true)
                } else {
                    Err(StoreError::LayoutMismatch {
                        table: table.to_string(),
                        recorded: r.fingerprint,
                        key: layout.name,
                        diff: Box::new(d),
                    })
                }
            }
        }
    }

    /// [`check`](Self::check), and where nothing is recorded, records
    /// `layout` if no other writer has recorded one meanwhile (one
    /// conditional write), then checks again: of concurrent first
    /// writers, exactly one records its layout, and the others pass only
    /// if theirs reads as it does.
    pub async fn check_or_record(&self, table: &str, layout: &Layout) -> Result<(), StoreError> {
        if !self.check(table, layout).await? {
            if self.record_first(table, layout).await? {
                // The fingerprint beside it (the JSON alone already reads).
                let fingerprint = layout.fingerprint().to_string();
                let cell = Cell::new(LAYOUT_FAMILY, LAYOUT_FINGERPRINT, fingerprint);
                self.store
                    .write_rows(vec![Row::new(table.as_bytes().to_vec(), vec![cell])])
                    .await?;
            }
            self.check(table, layout).await?;
        }
        Ok(())
    }

    /// Sets `table`'s layout JSON if the registry holds none; whether it
    /// did.
    async fn record_first(&self, table: &str, layout: &Layout) -> Result<bool, StoreError> {
        let check = CellCheck::new(LAYOUT_FAMILY, LAYOUT_JSON, CellCondition::Absent);
        let json = RowEdit::set(LAYOUT_FAMILY, LAYOUT_JSON, layout.to_json());
        let write = ConditionalWrite::new(table.as_bytes().to_vec(), check).on_true(vec![json]);
        self.store.check_and_write(write).await
    }
}
