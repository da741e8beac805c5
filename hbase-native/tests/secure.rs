//! Secure clusters met by a client that was not set up for them (no
//! `Options::tls`, no credentials). Each must be refused in bounded time
//! with an error that says what the cluster wants and what to set, not a
//! hang, ten retries or "the server closed the connection":
//! - TLS: HBase 2.6.1 with its Netty RPC server set to TLS and plaintext
//!   refused (`hbase.server.netty.tls.*`, a self-signed key made with the
//!   JDK's `keytool`);
//! - Kerberos (SASL): HBase 2.6.1 with `hbase.security.authentication`
//!   set to `kerberos`, its servers logged in from a keytab of an
//!   in-process KDC (the harness's `--kerberos`, Hadoop's MiniKdc).

use hbase_native::{Client, Error, Scan};
use rowkey_fixtures::hbase::{HBase, Options};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Runs `keytool` (from the JDK) with `args`.
fn keytool(args: &[&str], path: &Path) {
    let status = Command::new("keytool")
        .args(args)
        .args([
            "-storetype",
            "PKCS12",
            "-storepass",
            "rowkey-test",
            "-keystore",
        ])
        .arg(path)
        .status()
        .expect("keytool (from the JDK) runs");
    assert!(status.success(), "keytool {args:?} failed");
}

/// A keystore with one self-signed key for the servers, and a truststore
/// holding its certificate for the cluster's own calls between master and
/// servers.
fn stores(dir: &Path) -> (PathBuf, PathBuf) {
    let (keys, trust, cert) = (
        dir.join("keys.p12"),
        dir.join("trust.p12"),
        dir.join("hbase.crt"),
    );
    for f in [&keys, &trust, &cert] {
        let _ = std::fs::remove_file(f);
    }
    keytool(
        &[
            "-genkeypair",
            "-alias",
            "hbase",
            "-keyalg",
            "RSA",
            "-keysize",
            "2048",
            "-dname",
            "CN=localhost",
            "-validity",
            "2",
        ],
        &keys,
    );
    let cert_path = cert.display().to_string();
    keytool(
        &["-exportcert", "-alias", "hbase", "-file", &cert_path],
        &keys,
    );
    keytool(
        &[
            "-importcert",
            "-noprompt",
            "-alias",
            "hbase",
            "-file",
            &cert_path,
        ],
        &trust,
    );
    (keys, trust)
}

fn tls_only((keys, trust): (PathBuf, PathBuf)) -> Vec<(String, String)> {
    let (keys, trust) = (keys.display().to_string(), trust.display().to_string());
    [
        ("hbase.server.netty.tls.enabled", "true"),
        ("hbase.server.netty.tls.supportplaintext", "false"),
        ("hbase.server.netty.tls.client.auth.mode", "NONE"),
        ("hbase.server.netty.tls.verify.client.hostname", "false"),
        ("hbase.client.netty.tls.enabled", "true"),
        ("hbase.client.netty.tls.verify.server.hostname", "false"),
        ("hbase.rpc.tls.keystore.location", &keys),
        ("hbase.rpc.tls.keystore.type", "PKCS12"),
        ("hbase.rpc.tls.keystore.password", "rowkey-test"),
        ("hbase.rpc.tls.truststore.location", &trust),
        ("hbase.rpc.tls.truststore.type", "PKCS12"),
        ("hbase.rpc.tls.truststore.password", "rowkey-test"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect()
}

/// Starts a cluster with `options`, finds it through ZooKeeper (which
/// speaks plaintext in both cases), and returns the error its first call
/// met, checking it is `Unsupported` and came within a minute.
async fn refusal(options: &Options) -> Error {
    let server = HBase::try_start_with(options).unwrap_or_else(|e| panic!("a secure HBase: {e}"));
    let started = Instant::now();
    let client = Client::connect(&server.zk_address())
        .await
        .expect("ZooKeeper speaks plaintext: connecting finds the cluster");
    let e = tokio::time::timeout(
        Duration::from_secs(60),
        futures::TryStreamExt::try_collect::<Vec<_>>(client.scan("hbase:meta", Scan::all())),
    )
    .await
    .expect("an answer in bounded time")
    .unwrap_err();
    assert!(matches!(e, Error::Unsupported { .. }), "{e:?}");
    eprintln!("refused after {:?}: {e}", started.elapsed());
    // The master refuses as the region servers do.
    let admin = tokio::time::timeout(Duration::from_secs(60), client.admin().table_names())
        .await
        .expect("the master answers in bounded time")
        .unwrap_err();
    assert!(matches!(admin, Error::Unsupported { .. }), "{admin:?}");
    e
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cluster_that_wants_tls_is_refused_with_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("rowkey-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let e = refusal(&Options {
        settings: tls_only(stores(&dir)),
        ..Options::default()
    })
    .await;
    assert!(e.to_string().contains("TLS"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cluster_that_wants_kerberos_is_refused_with_a_clear_error() {
    let e = refusal(&Options {
        kerberos: true,
        ..Options::default()
    })
    .await;
    let text = e.to_string();
    assert!(text.contains("SASL"), "{text}");
    // HBase's own words, so a user can search for them.
    assert!(text.contains("Authentication is required"), "{text}");
}
