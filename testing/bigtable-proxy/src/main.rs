//! The test proxy of Google's Cloud Bigtable client conformance suite
//! (`github.com/googleapis/cloud-bigtable-clients-test`) for
//! rowkey-bigtable: a gRPC server of
//! `google.bigtable.testproxy.CloudBigtableV2TestProxy` that turns each of
//! the suite's requests into a call of
//! [`BigtableStore`](rowkey_bigtable::BigtableStore)'s own API, against the
//! mock server (or emulator) the suite names, and returns what the store
//! returned. `.ci/bigtable-conformance.sh` builds and runs it.
//!
//! ```text
//! rowkey-bigtable-test-proxy --port 9999      # or --addr 127.0.0.1:9999
//! ```
//!
//! It prints `listening on ADDR` once it listens.

#[cfg(not(no_suite))]
mod clients;
#[cfg(not(no_suite))]
mod convert;
#[cfg(not(no_suite))]
mod proto;
#[cfg(not(no_suite))]
mod service;

use std::process::ExitCode;

/// The address to listen on, from `--port N` or `--addr HOST:PORT`.
fn address(args: &[String]) -> Result<String, String> {
    match args {
        [flag, port] if flag == "--port" => port
            .parse::<u16>()
            .map(|p| format!("127.0.0.1:{p}"))
            .map_err(|e| format!("--port {port}: {e}")),
        [flag, addr] if flag == "--addr" => Ok(addr.clone()),
        _ => Err("usage: rowkey-bigtable-test-proxy (--port N | --addr HOST:PORT)".into()),
    }
}

#[cfg(not(no_suite))]
#[tokio::main]
async fn main() -> ExitCode {
    use crate::proto::google::bigtable::testproxy::cloud_bigtable_v2_test_proxy_server::CloudBigtableV2TestProxyServer;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let addr = match address(&args) {
        Ok(addr) => addr,
        Err(why) => {
            eprintln!("{why}");
            return ExitCode::from(2);
        }
    };
    let listener = match tokio::net::TcpListener::bind(&addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("cannot listen on {addr}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let local = listener.local_addr().map_or(addr, |a| a.to_string());
    println!("listening on {local}");
    let incoming = tonic::transport::server::TcpIncoming::from(listener);
    let served = tonic::transport::Server::builder()
        .add_service(CloudBigtableV2TestProxyServer::new(
            service::Proxy::default(),
        ))
        .serve_with_incoming(incoming)
        .await;
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("the proxy stopped: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(no_suite)]
fn main() -> ExitCode {
    let _ = address;
    eprintln!(
        "this test proxy was built without the conformance suite's descriptor set: {}",
        include_str!(concat!(env!("OUT_DIR"), "/stub_reason.txt"))
    );
    ExitCode::FAILURE
}
