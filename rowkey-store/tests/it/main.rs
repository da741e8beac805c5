//! rowkey-store's integration tests, one module per former test file, in
//! one binary. Run one module with `cargo test -p rowkey-store --test it
//! conformance::`.

mod conformance;
mod dyn_store;
mod guard;
mod rekey;
mod rekey_indexed;
mod walks;
