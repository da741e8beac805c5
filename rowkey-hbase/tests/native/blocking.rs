//! The blocking store on the native transport: the client's own runtime
//! runs its connections, so the parking executor (no reactor) drives it.

#[path = "../shared/blocking.rs"]
mod check;

#[test]
fn the_blocking_store_works_without_a_runtime() {
    check::check(
        &crate::cluster::address(),
        &format!("blocking_{}", std::process::id()),
    );
}
