//! The generated types: `google.bigtable.testproxy` (the proxy's service)
//! and the `google.bigtable.v2`, `google.rpc`, `google.api` and
//! `google.type` messages it carries, from the suite's descriptor set
//! (build.rs).

#![allow(dead_code, missing_docs, clippy::all, clippy::pedantic, rustdoc::all)]

include!(concat!(env!("OUT_DIR"), "/protos.rs"));
