//! Compile-fail cases: every misuse the derives reject, with the message
//! and span a user sees. Regenerate with
//! `TRYBUILD=overwrite cargo test --all-features --test it ui::`.
//!
//! The snapshots are taken with every feature on (the README's test
//! command): rustc lists types that implement `KeyPart` in some messages,
//! and the optional `uuid`, `chrono`, `rust_decimal`, `time` and `jiff`
//! parts change that list.

#[test]
#[cfg_attr(
    not(all(
        feature = "chrono",
        feature = "uuid",
        feature = "rust_decimal",
        feature = "time",
        feature = "jiff"
    )),
    ignore = "ui snapshots are taken with --all-features (the README's test command)"
)]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
