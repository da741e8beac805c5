//! rowkey-bigtable's integration tests, one module per former test file,
//! in one binary. Run one module with `cargo test -p rowkey-bigtable
//! --test it faults::` (the trailing `::` keeps `faults_index_and_fuzzy`
//! out).
//!
//! Each test starts an emulator of its own (`Emulator::start`: a port the
//! emulator binds itself) and, for fault tests, a proxy on a port of its
//! own, so tests on parallel threads of this one process share no server
//! and no table.
//!
//! `tests/memory.rs` and `tests/load_memory.rs` stay binaries of their
//! own: each installs a counting `#[global_allocator]` and measures the
//! process's peak heap, which the tests here, running on other threads,
//! would add to.

mod admin;
mod bigtable_api;
mod bigtable_only;
mod cloud;
mod conditional;
mod conformance;
mod faults;
mod faults_index_and_fuzzy;
mod guard;
mod late_replays;
