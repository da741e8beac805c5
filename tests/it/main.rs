//! The facade's integration tests, one module per former test file, in
//! one binary: each `tests/*.rs` was a crate of its own that linked
//! rowkey, its dependencies and the fixtures again. Run one module with
//! `cargo test --all-features --test it golden::` (a module path filter).
//!
//! Apart, and why:
//! - `tests/zero_alloc.rs` installs a counting `#[global_allocator]`: the
//!   allocator would count for every test here, and its own proofs want a
//!   binary where nothing else runs.
//! - `tests/differential/` (the interpreter-against-derive matrix) is
//!   already one binary, and stays one: folded in here it costs as much
//!   CPU to compile as the two crates apart (~55 s each way on this
//!   2-core machine), but apart the two compile in parallel, and a run of
//!   one module here does not compile the matrix.
//!
//! Tests that need an optional key part are compiled with its features
//! only: the `#[cfg]` is on the module below. Data files stay where they
//! were (`tests/golden/keys.txt`, `tests/java/`, the compile-fail cases in
//! `tests/ui/`): they are read by path from the crate root.

mod bits;
mod bulk_load;
mod cursors;
#[cfg(all(feature = "chrono", feature = "time", feature = "jiff"))]
mod date_edges;
mod derive_props;
mod docs;
mod e2e;
mod errors;
mod explain;
mod fixed_len_decode;
mod fuzzy_pages;
mod golden;
mod in_list_order;
mod index_record;
mod index_table;
mod java_crosscheck;
mod layout_diff;
mod layout_diff_counts;
mod layout_diff_props;
#[cfg(feature = "json")]
mod layout_fingerprint;
#[cfg(feature = "json")]
mod layout_snapshots;
mod merge;
#[cfg(all(feature = "rust_decimal", feature = "time", feature = "jiff"))]
mod opentsdb;
mod optional_parts;
mod page_cost;
mod phoenix_codecs;
mod phoenix_derive;
mod phoenix_records;
mod phoenix_scan;
mod record_derive;
mod record_key_bytes;
mod record_props;
mod record_trial;
mod salt;
mod salt_props;
mod scan;
#[cfg(all(feature = "chrono", feature = "uuid", feature = "rust_decimal"))]
mod scan_codecs;
mod scan_free;
mod scan_free_range;
mod scan_in;
mod scan_props;
mod seed_layouts;
#[cfg(all(feature = "chrono", feature = "jiff"))]
mod text_date_bounds;
#[cfg(all(
    feature = "chrono",
    feature = "uuid",
    feature = "rust_decimal",
    feature = "time",
    feature = "jiff"
))]
mod text_forms;
mod ui;
