//! Running the real `rowkey` binary from integration tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A checked-in seed layout file.
#[allow(dead_code)] // not every test binary needs it
pub fn layout(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/layouts/{name}.json"))
}

/// Runs `rowkey` with `args`.
pub fn rowkey(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rowkey"))
        .args(args)
        .output()
        .expect("the rowkey binary runs")
}

/// Runs and expects success; stdout.
#[allow(dead_code)] // not every test binary needs it
pub fn ok(args: &[&str]) -> String {
    let out = rowkey(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs and expects a clean failure; stderr.
#[allow(dead_code)] // not every test binary needs it
pub fn fails(args: &[&str]) -> String {
    let out = rowkey(args);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(stderr.contains("error: "), "{args:?}: {stderr}");
    stderr
}

/// A scratch file of this test process.
pub fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rowkey-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `key` as lowercase hex, as `--hex` reads it.
#[allow(dead_code)] // not every test binary needs it
pub fn hex(key: &[u8]) -> String {
    key.iter().map(|b| format!("{b:02x}")).collect()
}

/// A scratch file of `keys`, one a line: pasted (toStringBinary, as the
/// HBase shell prints them) or, with `as_hex`, in hex.
#[allow(dead_code)] // not every test binary needs it
pub fn keys_file(name: &str, keys: &[Vec<u8>], as_hex: bool) -> PathBuf {
    let text: String = keys
        .iter()
        .map(|k| {
            if as_hex {
                hex(k) + "\n"
            } else {
                format!("{}\n", rowkey::KeyDisplay(k))
            }
        })
        .collect();
    let path = tmp(name);
    std::fs::write(&path, text).unwrap();
    path
}
