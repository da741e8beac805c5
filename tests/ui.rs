//! Compile-fail cases: every misuse the derives reject, with the message
//! and span a user sees. Regenerate with `TRYBUILD=overwrite cargo test --test ui`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
