//! The layout interpreter (`rowkey-core`'s `layout::dynamic`, what the CLI
//! and any tool without the derived type runs) against the derived code,
//! over a generated matrix of codecs and attributes rather than hand-picked
//! layouts: one derived struct per combination (`matrix!` in
//! `harness.rs`), each in the middle of a key and last, and every fixture
//! layout. For each, adversarial values (`values.rs`) and the bytes near
//! their keys; the agreements checked are in `harness.rs`.
//!
//! `PROPTEST_CASES=N` sets the cases per combination (64 by default).
#![cfg(all(
    feature = "json",
    feature = "chrono",
    feature = "time",
    feature = "jiff",
    feature = "uuid",
    feature = "rust_decimal"
))]

#[macro_use]
mod harness;
mod person;
mod values;

mod dates;
mod fixture_layouts;
mod ints;
mod prefixes;
mod scalars;
mod separated;
mod text;
