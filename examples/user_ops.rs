//! Latest user operations: uid + (Long.MAX_VALUE - ts); the latest N and a time window.
//!
//! Run: `cargo run --example user_ops`
mod layouts;
mod show;
use layouts::UserOp;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rows = UserOp::rows(10_000);
    show::layout(&rows, &UserOp::splits(), UserOp::queries(&rows))
}
