//! Writes that depend on what a row holds: a conditional write of one row
//! ([`ConditionalWrite`]) and counters and appends
//! ([`ReadModifyWrite`]), each applied by the server as one step; and how
//! a row's cells change under them (`apply`, MemStore's and the tests'
//! reference).

mod apply;
mod conditional;
mod deletes_first;
mod modify;

pub(crate) use apply::{apply_edits, apply_rules, set_in_order};
pub use conditional::{CellCheck, CellCondition, ConditionalWrite, RowEdit};
pub use deletes_first::DeletesFirst;
pub(crate) use modify::counter_of;
pub use modify::{counter_value, ModifyRule, ReadModifyWrite};
