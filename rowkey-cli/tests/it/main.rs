//! The `rowkey` binary's integration tests, one module per former test
//! file, in one binary (one link of the binary's dependencies, not one per
//! file). Run one module with `cargo test -p rowkey-cli --test it cli::`.
//!
//! Every module here runs in one process, on parallel threads: scratch
//! files (`run::tmp`) are named per test, and each emulator test starts an
//! emulator of its own on a port it picks.

mod adversarial_agree;
mod cbt_read;
mod cli;
mod cli_errors;
mod diff;
mod hotspot_cause;
mod iot;
mod layout_files;
mod live_read;
mod phoenix;
#[cfg(feature = "bigtable")]
mod rekey;
#[cfg(feature = "bigtable")]
mod rekey_indexes;
mod seed_agree;
mod text_forms;

/// The picture as a PNG.
mod png;
mod prefix_ranges;
mod qualifiers;
/// Running the binary.
mod run;
/// The interpreter-against-derive check every layout goes through.
mod support;
