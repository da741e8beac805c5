//! The blocking store through the Thrift 1 server.

#[path = "../shared/blocking.rs"]
mod check;

#[test]
fn the_blocking_store_works_without_a_runtime() {
    check::check(
        &crate::server::address(),
        &format!("blocking_{}", std::process::id()),
    );
}
