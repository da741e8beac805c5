//! Kerberos against a real Kerberized HBase 2.6.1 (the harness's
//! `--kerberos`: a MiniKdc in the JVM, the servers logged in from its
//! keytab), at each `hbase.rpc.protection` level: reads and writes over
//! authenticated, signed and encrypted connections (what passes on the
//! wire is checked through a tapping proxy), a keytab login that outlives
//! its tickets, the ticket cache `kinit` fills, and the errors a user
//! meets, each naming what to fix, in bounded time.
#![cfg(feature = "kerberos")]

#[path = "common/secure.rs"]
#[allow(dead_code)] // each test file uses some of it
mod common;

use common::{contains, refused, round_trip, Taps, MARKER};
use futures::TryStreamExt;
use hbase_native::{Client, Error, Kerberos, Options, Protection, RowMutation, Scan, Token};
use rowkey_fixtures::hbase::{HBase, Kdc, Options as ServerOptions};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// MIT Kerberos reads `KRB5_CONFIG` and `KRB5CCNAME` from the environment,
/// one for the process: the tests take turns.
static KRB5: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn kerberized(protection: &str, ticket_lifetime: Option<Duration>) -> HBase {
    HBase::try_start_with(&ServerOptions {
        kerberos: true,
        ticket_lifetime,
        settings: vec![("hbase.rpc.protection".into(), protection.into())],
        ..ServerOptions::default()
    })
    .unwrap_or_else(|e| panic!("a Kerberized HBase: {e}"))
}

fn use_kdc(kdc: &Kdc) {
    std::env::set_var("KRB5_CONFIG", &kdc.krb5_conf);
}

fn keytab_login(kdc: &Kdc) -> Kerberos {
    Kerberos::default()
        .keytab(&kdc.client_principal, &kdc.client_keytab)
        .service_principal("hbase/_HOST@".to_owned() + &kdc.realm)
}

/// A cluster at `level`: a keytab client that insists on it reads and
/// writes exactly; a tapper sees the values unless the level is privacy.
async fn at_level(level: Protection) -> (HBase, Kdc) {
    let server = kerberized(level.hbase_name(), None);
    let kdc = server.kdc.clone().expect("a KDC");
    use_kdc(&kdc);
    let taps = Taps::default();
    let options = taps
        .options()
        .kerberos(keytab_login(&kdc).min_protection(level));
    let client = Client::connect_with(&server.zk_address(), options)
        .await
        .unwrap_or_else(|e| panic!("connect: {e}\n{}", server.stderr_tail()));
    round_trip(&client, "kerberos_rows", 1200).await;
    let (up, down) = taps.seen();
    assert!(
        up.len() > 1 << 20 && down.len() > 1 << 20,
        "{} {}",
        up.len(),
        down.len()
    );
    let clear = level != Protection::Privacy;
    assert_eq!(contains(&up, MARKER), clear, "client to server at {level}");
    assert_eq!(
        contains(&down, MARKER),
        clear,
        "server to client at {level}"
    );
    // Nor does the table's name pass in the clear at privacy.
    assert_eq!(contains(&up, b"kerberos_rows"), clear);
    // Tokens stay at authentication: at a stronger level, a token client is
    // refused saying so.
    if level != Protection::Authentication {
        let token = client.authentication_token().await.expect("a token");
        let e = refused(&server, Options::default().token(token)).await;
        assert!(matches!(e, Error::Authentication { .. }), "{e:?}");
        assert!(
            e.to_string()
                .contains("hbase.rpc.protection=authentication"),
            "{e}"
        );
    }
    // Found through the masters (the master registry, `hbase://`): the
    // master's ClientMetaService authenticates too. Named `localhost`, as
    // its principal is (`_HOST` is the host as the address gives it).
    let through_master = Client::connect_with(
        &format!("hbase://localhost:{}", server.master_port),
        Options::default()
            .attempts(2)
            .kerberos(keytab_login(&kdc).min_protection(level)),
    )
    .await
    .expect("connect through the master registry");
    let rows: Vec<_> = through_master
        .scan("kerberos_rows", Scan::all())
        .try_collect()
        .await
        .expect("scan through the master registry");
    assert_eq!(rows.len(), 1200);
    // A client that insists on more than the server offers is refused
    // before any call, saying both.
    if level != Protection::Privacy {
        let stronger = Options::default()
            .attempts(2)
            .kerberos(keytab_login(&kdc).min_protection(Protection::Privacy));
        let e = refused(&server, stronger).await;
        assert!(matches!(e, Error::Authentication { .. }), "{e:?}");
        let text = e.to_string();
        assert!(
            text.contains(level.hbase_name()) && text.contains("privacy"),
            "{text}"
        );
        assert!(text.contains("min_protection"), "{text}");
    }
    (server, kdc)
}

#[tokio::test(flavor = "multi_thread")]
async fn privacy_encrypts_every_frame() {
    let _turn = KRB5.lock().await;
    at_level(Protection::Privacy).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn integrity_signs_every_frame() {
    let _turn = KRB5.lock().await;
    at_level(Protection::Integrity).await;
}

/// `kinit` into a cache of the test's own; returns its `KRB5CCNAME`.
fn kinit(kdc: &Kdc, cache: &Path) -> String {
    let name = format!("FILE:{}", cache.display());
    let mut kinit = Command::new("kinit");
    kinit
        .env("KRB5_CONFIG", &kdc.krb5_conf)
        .args(["-c", &name, "-k", "-t"])
        .arg(&kdc.client_keytab);
    let status = kinit
        .arg(&kdc.client_principal)
        .status()
        .expect("kinit runs (MIT Kerberos's krb5-user; .ci/run installs it)");
    assert!(status.success(), "kinit failed");
    name
}

#[tokio::test(flavor = "multi_thread")]
async fn authentication_with_a_ticket_cache_and_the_errors_a_user_meets() {
    let _turn = KRB5.lock().await;
    let (server, kdc) = at_level(Protection::Authentication).await;
    let service = format!("hbase/_HOST@{}", kdc.realm);
    let dir = std::env::temp_dir().join(format!("rowkey-krb5-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    // The ticket `kinit` left: no credentials in the options.
    let cache = kinit(&kdc, &dir.join("cache"));
    std::env::set_var("KRB5CCNAME", &cache);
    let from_cache = Options::default()
        .attempts(2)
        .kerberos(Kerberos::default().service_principal(&service));
    let client = Client::connect_with(&server.zk_address(), from_cache.clone())
        .await
        .expect("a kinit ticket connects");
    round_trip(&client, "kerberos_cache", 600).await;

    // A delegation token, got with Kerberos, used alone by a client that
    // has no Kerberos at all (a job's worker): reads and writes.
    let token = client.authentication_token().await.expect("a token");
    assert_eq!(
        token.username().as_deref(),
        Some(kdc.client_principal.as_str())
    );
    assert!(token
        .expires()
        .is_some_and(|t| t > std::time::SystemTime::now()));
    let shipped = Token::from_bytes(&token.to_bytes()).unwrap();
    std::env::set_var("KRB5CCNAME", format!("FILE:{}", dir.join("none").display()));
    let worker = Client::connect_with(
        &server.zk_address(),
        Options::default().attempts(2).token(shipped),
    )
    .await
    .expect("a token connects");
    round_trip(&worker, "kerberos_token", 300).await;
    // A token beside a Kerberos login that insists on privacy: refused at
    // connect, since the token would win and authenticate only.
    let both = Options::default()
        .token(token.clone())
        .kerberos(keytab_login(&kdc).min_protection(Protection::Privacy));
    let e = refused(&server, both).await;
    assert!(e.to_string().contains("min_protection"), "{e}");
    // A token whose password was changed is refused, not retried.
    let forged = Options::default().token(Token::from_bytes(&forge(&token.to_bytes())).unwrap());
    let e = refused(&server, forged).await;
    assert!(matches!(e, Error::Authentication { .. }), "{e:?}");

    // No ticket at all.
    std::env::set_var("KRB5CCNAME", format!("FILE:{}", dir.join("none").display()));
    let e = refused(&server, from_cache.clone()).await;
    assert!(matches!(e, Error::Authentication { .. }), "{e:?}");
    assert!(e.to_string().contains("kinit"), "{e}");

    std::env::remove_var("KRB5CCNAME");

    // A service principal the KDC does not know.
    let wrong = Options::default()
        .attempts(2)
        .kerberos(keytab_login(&kdc).service_principal(format!("hbase/elsewhere@{}", kdc.realm)));
    let e = refused(&server, wrong).await;
    assert!(matches!(e, Error::Authentication { .. }), "{e:?}");
    let text = e.to_string();
    assert!(
        text.contains("hbase/elsewhere") && text.contains("service_principal"),
        "{text}"
    );

    // A keytab without the principal asked for: refused at connect.
    let stranger = Options::default().kerberos(
        Kerberos::default()
            .keytab(format!("nobody@{}", kdc.realm), &kdc.client_keytab)
            .service_principal(&service),
    );
    let e = refused(&server, stranger).await;
    assert!(matches!(e, Error::Authentication { .. }), "{e:?}");
    assert!(e.to_string().contains("nobody@"), "{e}");

    // A keytab that is not there.
    let missing = Options::default().kerberos(
        Kerberos::default()
            .keytab(&kdc.client_principal, dir.join("missing.keytab"))
            .service_principal(&service),
    );
    let e = refused(&server, missing).await;
    assert!(e.to_string().contains("missing.keytab"), "{e}");

    // A KDC that does not answer: a krb5.conf naming a closed port.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let conf = std::fs::read_to_string(&kdc.krb5_conf).unwrap().replace(
        &format!("127.0.0.1:{}", kdc.port),
        &format!("127.0.0.1:{port}"),
    );
    let down = dir.join("krb5-down.conf");
    std::fs::write(&down, conf).unwrap();
    std::env::set_var("KRB5_CONFIG", &down);
    // A copy of the keytab: a login with no tickets cached yet (logins
    // with one principal and keytab share their tickets).
    let copy = dir.join("copy.keytab");
    std::fs::copy(&kdc.client_keytab, &copy).unwrap();
    let fresh = Kerberos::default()
        .keytab(&kdc.client_principal, &copy)
        .service_principal(&service);
    let e = refused(&server, Options::default().kerberos(fresh)).await;
    // A network failure (a KDC failing over): retried, where it is met
    // on a call's new connection.
    assert!(
        matches!(e, Error::Connection { .. }) && e.is_retryable(),
        "{e:?}"
    );
    assert!(e.to_string().contains("KDC"), "{e}");
    use_kdc(&kdc);

    // A clock two hours off: this test binary again, under libfaketime,
    // with a krb5.conf that does not correct the clock by the KDC's
    // (MIT Kerberos's kdc_timesync would hide the skew).
    let no_timesync = dir.join("krb5-no-timesync.conf");
    let conf = std::fs::read_to_string(&kdc.krb5_conf)
        .unwrap()
        .replace("[libdefaults]\n", "[libdefaults]\n  kdc_timesync = 0\n");
    std::fs::write(&no_timesync, conf).unwrap();
    let child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "a_client_whose_clock_is_off", "--nocapture"])
        .env("LD_PRELOAD", FAKETIME)
        .env("FAKETIME", "+2h")
        .env("DONT_FAKE_MONOTONIC", "1")
        .env("KRB5_CONFIG", &no_timesync)
        .env("ROWKEY_SKEWED_ZK", server.zk_address())
        .env("ROWKEY_SKEWED_KEYTAB", &kdc.client_keytab)
        .env("ROWKEY_SKEWED_PRINCIPAL", &kdc.client_principal)
        .env("ROWKEY_SKEWED_SERVICE", &service)
        .output()
        .expect("the test binary runs again");
    let out = String::from_utf8_lossy(&child.stdout).into_owned()
        + &String::from_utf8_lossy(&child.stderr);
    assert!(child.status.success(), "{out}");
    assert!(out.contains("skewed client refused"), "{out}");
    eprintln!(
        "{}",
        out.lines()
            .find(|l| l.contains("skewed client refused"))
            .unwrap_or_default()
    );

    // A Kerberos client of a cluster without Kerberos.
    let open = HBase::try_start(0).unwrap_or_else(|e| panic!("an open HBase: {e}"));
    let e = refused(
        &open,
        Options::default().attempts(2).kerberos(keytab_login(&kdc)),
    )
    .await;
    assert!(matches!(e, Error::Authentication { .. }), "{e:?}");
    assert!(e.to_string().contains("does not use Kerberos"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A token's bytes (HBase's `Token` message: field 1 the identifier,
/// field 2 the password, field 3 the service, each a short byte string)
/// with one bit of the password flipped.
fn forge(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let mut at = 0;
    while at < out.len() {
        let (tag, len) = (out[at], out[at + 1] as usize);
        assert!(len < 0x80, "a short field");
        if tag == 0x12 {
            out[at + 2] ^= 1;
            return out;
        }
        at += 2 + len;
    }
    panic!("no password in {bytes:02x?}");
}

/// libfaketime (Debian's `faketime`; .ci/run installs it), for a process
/// whose clock is off.
const FAKETIME: &str = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1";

/// The client of the clock-skew check above, run by it in a process whose
/// clock is two hours ahead; does nothing in a plain run.
#[tokio::test(flavor = "multi_thread")]
async fn a_client_whose_clock_is_off() {
    let Ok(zk) = std::env::var("ROWKEY_SKEWED_ZK") else {
        return;
    };
    let var = |name: &str| std::env::var(name).unwrap();
    let options = Options::default().attempts(2).kerberos(
        Kerberos::default()
            .keytab(var("ROWKEY_SKEWED_PRINCIPAL"), var("ROWKEY_SKEWED_KEYTAB"))
            .service_principal(var("ROWKEY_SKEWED_SERVICE")),
    );
    let attempt = async {
        let client = Client::connect_with(&zk, options).await?;
        client.admin().table_names().await.map(drop)
    };
    let e = tokio::time::timeout(Duration::from_secs(30), attempt)
        .await
        .expect("an answer in bounded time")
        .expect_err("refused");
    assert!(matches!(e, Error::Authentication { .. }), "{e:?}");
    assert!(e.to_string().contains("clock"), "{e}");
    println!("skewed client refused: {e}");
}

/// Tickets that last 30 s; a client from a keytab reads and writes for
/// several of their lifetimes, its connections cut every few seconds so
/// that each new one authenticates again. A ticket `kinit` got at the
/// start has run out by then: a client of that cache gets the clear error.
#[tokio::test(flavor = "multi_thread")]
async fn a_keytab_login_outlives_its_tickets() {
    let _turn = KRB5.lock().await;
    let lifetime = Duration::from_secs(30);
    let server = kerberized("privacy", Some(lifetime));
    let kdc = server.kdc.clone().expect("a KDC");
    use_kdc(&kdc);
    let dir = std::env::temp_dir().join(format!("rowkey-krb5-short-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cache = kinit(&kdc, &dir.join("cache"));
    let taps = Taps::default();
    let client = Client::connect_with(
        &server.zk_address(),
        taps.options().attempts(5).kerberos(keytab_login(&kdc)),
    )
    .await
    .expect("connect");
    client
        .admin()
        .create_table("kerberos_relogin", &["d"], &[])
        .await
        .expect("create");
    let started = Instant::now();
    let mut written = BTreeMap::new();
    let mut round = 0u32;
    while started.elapsed() < lifetime * 3 {
        taps.cut_all();
        let key = format!("row{round:05}").into_bytes();
        client
            .mutate(
                "kerberos_relogin",
                vec![RowMutation::put(key.clone()).set(b"d", b"q", b"v").at(1)],
            )
            .await
            .unwrap_or_else(|e| panic!("write after {:?}: {e}", started.elapsed()));
        written.insert(key, b"v".to_vec());
        let got: Vec<_> = client
            .scan("kerberos_relogin", Scan::all())
            .try_collect()
            .await
            .unwrap_or_else(|e| panic!("read after {:?}: {e}", started.elapsed()));
        assert_eq!(got.len(), written.len());
        round += 1;
        tokio::time::sleep(Duration::from_secs(4)).await;
    }
    eprintln!(
        "{round} rounds over {:?}, {} connections",
        started.elapsed(),
        taps.connections()
    );
    // Every round's connections were new ones, each authenticated.
    assert!(
        taps.connections() > round as usize,
        "{}",
        taps.connections()
    );

    // The KDC did give short tickets: the one `kinit` got has run out.
    let valid = Command::new("klist")
        .env("KRB5_CONFIG", &kdc.krb5_conf)
        .args(["-s", "-c", &cache])
        .status()
        .expect("klist runs");
    assert!(!valid.success(), "the ticket from the start is still valid");
    std::env::set_var("KRB5CCNAME", &cache);
    let from_cache = Options::default()
        .attempts(2)
        .kerberos(Kerberos::default().service_principal(format!("hbase/_HOST@{}", kdc.realm)));
    let e = refused(&server, from_cache).await;
    std::env::remove_var("KRB5CCNAME");
    assert!(matches!(e, Error::Authentication { .. }), "{e:?}");
    let text = e.to_string();
    assert!(text.contains("expired") && text.contains("kinit"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
