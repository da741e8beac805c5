//! The native transport on secure clusters against HBase's own Java
//! client at the same settings, and the cost of each over an open
//! cluster, in one run: for an open cluster, one at each
//! `hbase.rpc.protection` level (`authentication`, `integrity`,
//! `privacy`; a standalone HBase 2.6.1 with a KDC in its JVM) and one that
//! speaks only TLS (a CA of the run's own, no client certificate), write
//! 100,000 rows of about 100 bytes with `write_rows` and scan them back
//! with `read_rows`, against Java's `BufferedMutator` and `Scan` (caching
//! 1,000) logged in to the same KDC from the same keytab
//! (`rowkey.testing.JavaBench`: 3 untimed warm-up rounds, then the timed
//! ones; the native store after one untimed round).
//!
//! Run: `cargo run --release -p rowkey-hbase --features kerberos,tls
//! --example hbase_secure_speed` (`-- --rows N --runs R
//! --java-warmups W`).

#[path = "common/speed.rs"]
mod speed;

use rowkey_fixtures::bench::{arg, median, per_run, table_row};
use rowkey_fixtures::hbase::{HBase, Options};
use rowkey_fixtures::pki::TestPki;
use rowkey_hbase::hbase_native::{Kerberos, Options as NativeOptions, Protection, Tls};
use rowkey_hbase::HBaseClient;
use speed::{java_rounds, store_round};
use std::time::Duration;

/// One cluster's figures: (java write, native write, java scan, native
/// scan), a run each.
type Times = [Vec<Duration>; 4];

/// A cluster: open, Kerberized at a level, or TLS only.
#[derive(Clone, Copy)]
enum Setting {
    Open,
    Kerberos(Protection),
    Tls,
}

impl Setting {
    fn name(self) -> &'static str {
        match self {
            Setting::Open => "open",
            Setting::Kerberos(l) => l.hbase_name(),
            Setting::Tls => "TLS",
        }
    }
}

async fn level(setting: Setting, rows: usize, runs: usize, warmups: usize) -> Times {
    let level = match setting {
        Setting::Kerberos(l) => Some(l),
        _ => None,
    };
    let pki = TestPki::new(
        &std::env::temp_dir().join(format!("rowkey-speed-pki-{}", std::process::id())),
    );
    let mut settings: Vec<(String, String)> = level
        .map(|l| ("hbase.rpc.protection".to_owned(), l.hbase_name().to_owned()))
        .into_iter()
        .collect();
    let mut java_env = Vec::new();
    let mut options = NativeOptions::default();
    if let Setting::Tls = setting {
        settings.extend(pki.server_settings("NONE"));
        java_env.push(("ROWKEY_TLS_TRUSTSTORE", pki.ca.display().to_string()));
        options = options.tls(Tls::ca_file(&pki.ca));
    }
    let hbase = HBase::try_start_with(&Options {
        kerberos: level.is_some(),
        settings,
        ..Options::default()
    })
    .unwrap_or_else(|e| panic!("{e}"));
    if let (Some(level), Some(kdc)) = (level, &hbase.kdc) {
        std::env::set_var("KRB5_CONFIG", &kdc.krb5_conf);
        options = options.kerberos(
            Kerberos::default()
                .keytab(&kdc.client_principal, &kdc.client_keytab)
                .service_principal(format!("hbase/_HOST@{}", kdc.realm))
                .min_protection(level),
        );
    }
    let native = HBaseClient::connect_native(&hbase.zk_address(), options)
        .await
        .unwrap();
    store_round(&native, "warm_native", rows).await;
    let mut times: Times = Default::default();
    for (run, (jw, js)) in java_rounds(&hbase, rows, runs, warmups, &java_env)
        .into_iter()
        .enumerate()
    {
        let (nw, ns) = store_round(&native, &format!("native{run}"), rows).await;
        for (i, t) in [jw, nw, js, ns].into_iter().enumerate() {
            times[i].push(t);
        }
        eprintln!(
            "{}: run {run}: java {jw:?}/{js:?} native {nw:?}/{ns:?}",
            setting.name()
        );
    }
    times
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let rows = arg("--rows", 100_000);
    let runs = arg("--runs", 3);
    let warmups = arg("--java-warmups", 3);
    let levels = [
        Setting::Open,
        Setting::Kerberos(Protection::Authentication),
        Setting::Kerberos(Protection::Integrity),
        Setting::Kerberos(Protection::Privacy),
        Setting::Tls,
    ];
    let mut all = Vec::new();
    for l in levels {
        all.push((l, level(l, rows, runs, warmups).await));
    }
    let open = &all[0].1;
    println!("{rows} rows of about 100 bytes, {runs} runs a cluster, medians\n");
    println!("| cluster | way | median | range | vs Java | vs open |");
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    for (l, times) in &all {
        let name = l.name();
        for (i, way) in [
            "write: Java BufferedMutator",
            "write: native write_rows",
            "scan: Java Scan, caching 1,000",
            "scan: native read_rows",
        ]
        .iter()
        .enumerate()
        {
            let java = median(&times[i / 2 * 2]);
            let row = table_row(way, &times[i], &[java, median(&open[i])]);
            println!("| {name} {row}");
        }
    }
    println!();
    for (l, times) in &all {
        println!(
            "{}: per run, native / Java: write {}, scan {}",
            l.name(),
            per_run(&times[1], &times[0]),
            per_run(&times[3], &times[2])
        );
    }
}
