//! Generates the test proxy's service and messages
//! (`google.bigtable.testproxy`, and the `google.bigtable.v2`,
//! `google.rpc` and `google.api` messages it uses) from the descriptor
//! set of the conformance suite pinned in `suite/go.mod`.
//!
//! The suite ships its proxy service only as generated Go, with the whole
//! descriptor embedded; `suite/descriptor.go` writes it out. So the types
//! come from the very version of the suite that runs, and nothing of
//! Google's is kept in the repository. The descriptor set is taken from
//! `ROWKEY_TESTPROXY_FDS` when that names a file, and is otherwise made
//! here with Go (`$GO`, else `go` on the `PATH`, else
//! `/usr/local/go/bin/go`; the module cache or the Go module proxy has the
//! suite). Without Go the proxy builds as a stub that says so and exits:
//! the rest of the workspace builds without Go.

use prost::Message;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    println!("cargo:rustc-check-cfg=cfg(no_suite)");
    println!("cargo:rerun-if-env-changed=ROWKEY_TESTPROXY_FDS");
    println!("cargo:rerun-if-env-changed=GO");
    for f in ["suite/go.mod", "suite/go.sum", "suite/descriptor.go"] {
        println!("cargo:rerun-if-changed={}", manifest.join(f).display());
    }
    let fds = match std::env::var_os("ROWKEY_TESTPROXY_FDS") {
        Some(path) => PathBuf::from(path),
        None => {
            let path = out.join("test_proxy.fds");
            match describe(&manifest.join("suite"), &path) {
                Ok(()) => path,
                Err(why) => {
                    println!("cargo:warning=the test proxy is built as a stub: {why}");
                    println!("cargo:rustc-cfg=no_suite");
                    std::fs::write(out.join("stub_reason.txt"), why).expect("OUT_DIR is writable");
                    return;
                }
            }
        }
    };
    let bytes = std::fs::read(&fds)
        .unwrap_or_else(|e| panic!("reading the descriptor set {}: {e}", fds.display()));
    let set = prost_types::FileDescriptorSet::decode(bytes.as_slice())
        .unwrap_or_else(|e| panic!("{} is no FileDescriptorSet: {e}", fds.display()));
    tonic_prost_build::configure()
        .build_client(false)
        .build_server(true)
        .include_file("protos.rs")
        .compile_fds(set)
        .expect("generating the test proxy's code");
}

/// Writes the suite's descriptor set to `out` with Go.
fn describe(suite: &Path, out: &Path) -> Result<(), String> {
    let go = std::env::var_os("GO")
        .map(PathBuf::from)
        .or_else(|| which("go"))
        .or_else(|| Some(PathBuf::from("/usr/local/go/bin/go")).filter(|p| p.exists()))
        .ok_or("no Go toolchain (set GO, or put go on the PATH)")?;
    let status = Command::new(&go)
        .args(["run", "-mod=readonly", "."])
        .arg(out)
        .current_dir(suite)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", go.display()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "`go run .` in {} failed: {status}",
            suite.display()
        ))
    }
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}
