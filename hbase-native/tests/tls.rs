//! TLS against a real HBase 2.6.1 whose RPC servers speak only TLS
//! (`hbase.server.netty.tls.*`, PEM stores of a CA the test makes,
//! `rowkey_fixtures::pki`): reads and writes over TLS, with and without a
//! client certificate (mutual TLS), nothing readable on the wire, and the
//! errors a user meets: a name or a CA that does not match, a client
//! certificate the server wants, a plaintext client, a plaintext server;
//! and Kerberos inside TLS. Each in bounded time, naming what to fix.
#![cfg(feature = "tls")]

#[path = "common/secure.rs"]
#[allow(dead_code)] // each test file uses some of it
mod common;

use common::{contains, refused, round_trip, Taps, MARKER};
use hbase_native::{Client, Error, Options, Tls};
use rowkey_fixtures::hbase::{HBase, Options as ServerOptions};
use rowkey_fixtures::pki::TestPki;

fn pki(name: &str) -> TestPki {
    TestPki::new(&std::env::temp_dir().join(format!("rowkey-pki-{}-{name}", std::process::id())))
}

/// A TLS-only cluster that wants a client certificate (mutual TLS).
#[tokio::test(flavor = "multi_thread")]
async fn mutual_tls_and_the_errors_a_user_meets() {
    let pki = pki("mutual");
    let server = HBase::try_start_with(&ServerOptions {
        settings: pki.server_settings("NEED"),
        ..ServerOptions::default()
    })
    .unwrap_or_else(|e| panic!("a TLS HBase: {e}"));
    let tls = Tls::ca_file(&pki.ca).client_identity(&pki.client_cert, &pki.client_key);

    let taps = Taps::default();
    let client = Client::connect_with(&server.zk_address(), taps.options().tls(tls.clone()))
        .await
        .unwrap_or_else(|e| panic!("connect: {e}\n{}", server.stderr_tail()));
    round_trip(&client, "tls_rows", 400).await;
    let (up, down) = taps.seen();
    assert!(up.len() > 100_000 && down.len() > 100_000);
    assert!(
        !contains(&up, MARKER) && !contains(&down, MARKER),
        "a value in the clear"
    );
    assert!(
        !contains(&up, b"tls_rows") && !contains(&up, b"HBas"),
        "the preamble in the clear"
    );

    // Connections cut under TLS, again and again while reading and
    // writing: each end is a broken connection, retried (not taken for a
    // server that wants TLS, which is not retried), and every read exact.
    let cutter = {
        let taps = taps.clone();
        tokio::spawn(async move {
            for _ in 0..8 {
                tokio::time::sleep(std::time::Duration::from_millis(150)).await;
                taps.cut_all();
            }
        })
    };
    let patient = client.with_policy(hbase_native::CallPolicy::new(
        20,
        std::time::Duration::from_millis(50),
        std::time::Duration::from_millis(500),
        std::time::Duration::from_secs(10),
    ));
    while !cutter.is_finished() {
        round_trip(&patient, "tls_rows", 400).await;
    }
    assert!(taps.connections() > 2, "{}", taps.connections());

    let tls_error = |e: &Error, words: &str| {
        assert!(matches!(e, Error::Tls { .. }), "{e:?}");
        assert!(e.to_string().contains(words), "{e}");
    };
    // No client certificate.
    let e = refused(&server, Options::default().tls(Tls::ca_file(&pki.ca))).await;
    tls_error(&e, "Tls::client_identity");
    // A name the certificate is not for.
    let e = refused(
        &server,
        Options::default().tls(tls.clone().server_name("elsewhere.example")),
    )
    .await;
    tls_error(&e, "elsewhere.example");
    // A CA that signed nothing here.
    let e = refused(
        &server,
        Options::default()
            .tls(Tls::ca_file(&pki.other_ca).client_identity(&pki.client_cert, &pki.client_key)),
    )
    .await;
    tls_error(&e, "Tls::ca_file");
    // A CA file that is not there: at connect.
    let e = refused(
        &server,
        Options::default().tls(Tls::ca_file(pki.ca.with_file_name("missing.pem"))),
    )
    .await;
    tls_error(&e, "missing.pem");
    // A plaintext client.
    let e = refused(&server, Options::default().attempts(2)).await;
    assert!(matches!(e, Error::Unsupported { .. }), "{e:?}");
    assert!(e.to_string().contains("Options::tls"), "{e}");
}

/// A TLS client of a cluster that speaks only plaintext.
#[tokio::test(flavor = "multi_thread")]
async fn a_tls_client_of_a_plaintext_cluster_is_told_so() {
    let pki = pki("plain");
    let server = HBase::try_start(0).unwrap_or_else(|e| panic!("an HBase: {e}"));
    let e = refused(
        &server,
        Options::default().attempts(2).tls(Tls::ca_file(&pki.ca)),
    )
    .await;
    assert!(matches!(e, Error::Tls { .. }), "{e:?}");
    assert!(e.to_string().contains("does not speak TLS"), "{e}");
}

/// Kerberos (at privacy) inside TLS, no client certificate asked for.
#[cfg(feature = "kerberos")]
#[tokio::test(flavor = "multi_thread")]
async fn kerberos_over_tls() {
    use hbase_native::{Kerberos, Protection};
    let pki = pki("kerberos");
    let mut settings = pki.server_settings("NONE");
    settings.push(("hbase.rpc.protection".into(), "privacy".into()));
    let server = HBase::try_start_with(&ServerOptions {
        kerberos: true,
        settings,
        ..ServerOptions::default()
    })
    .unwrap_or_else(|e| panic!("a Kerberized TLS HBase: {e}"));
    let kdc = server.kdc.clone().expect("a KDC");
    std::env::set_var("KRB5_CONFIG", &kdc.krb5_conf);
    let options = Options::default()
        .attempts(2)
        .tls(Tls::ca_file(&pki.ca))
        .kerberos(
            Kerberos::default()
                .keytab(&kdc.client_principal, &kdc.client_keytab)
                .service_principal(format!("hbase/_HOST@{}", kdc.realm))
                .min_protection(Protection::Privacy),
        );
    let client = Client::connect_with(&server.zk_address(), options)
        .await
        .unwrap_or_else(|e| panic!("connect: {e}\n{}", server.stderr_tail()));
    round_trip(&client, "tls_kerberos", 300).await;
}
