//! Latest user operations: uid + (Long.MAX_VALUE - ts); the latest N and a time window.
//!
//! Run: `cargo run --example user_ops`
use layouts::UserOp;
use rowkey_fixtures::layouts;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = UserOp::rows(10_000);
    rowkey_fixtures::show::layout(&rows, &UserOp::splits(), UserOp::queries(&rows))
}
