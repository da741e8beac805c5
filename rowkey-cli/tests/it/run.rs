//! Running the real `rowkey` binary from integration tests, through
//! assert_cmd: a failed expectation prints the command, its exit status,
//! stdout and stderr.

use assert_cmd::cargo::cargo_bin_cmd;
use assert_cmd::Command;
use predicates::prelude::*;
use std::path::{Path, PathBuf};

/// A checked-in seed layout file.
pub fn layout(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/layouts/{name}.json"))
}

/// The `rowkey` binary built for these tests, with `args`.
pub fn rowkey(args: &[&str]) -> Command {
    let mut cmd = cargo_bin_cmd!("rowkey");
    cmd.args(args);
    cmd
}

/// Runs and expects success; stdout.
pub fn ok(args: &[&str]) -> String {
    let out = rowkey(args).assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// Runs and expects a clean failure (exit code 1, an `error: ` and no
/// panic on stderr); stderr.
pub fn fails(args: &[&str]) -> String {
    let out = rowkey(args)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("panicked").not())
        .stderr(predicate::str::contains("error: "));
    String::from_utf8(out.get_output().stderr.clone()).unwrap()
}

/// A scratch file of this test process. Every module of the test binary
/// shares the directory: names are per test.
pub fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rowkey-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `key` as lowercase hex, as `--hex` reads it.
pub fn hex(key: &[u8]) -> String {
    key.iter().map(|b| format!("{b:02x}")).collect()
}

/// A scratch file of `keys`, one a line: pasted (toStringBinary, as the
/// HBase shell prints them) or, with `as_hex`, in hex.
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
