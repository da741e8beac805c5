//! rowkey-core's integration tests, one module per test file, in one
//! binary: a new test file is a module here, not another binary linking
//! the crate and its dev-dependencies again.

mod fuzzy_props;
mod hotspot_causes;
