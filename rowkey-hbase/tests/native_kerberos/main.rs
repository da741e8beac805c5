//! rowkey-hbase's native transport on a Kerberized cluster: a master and
//! three region servers in one JVM with a KDC
//! (`rowkey_fixtures::hbase::kerberized_cluster`, `hbase.rpc.protection`
//! = privacy, so every frame is encrypted), the client logged in from a
//! keytab. The tests are the open cluster's, run again here: the Store
//! conformance suite, the cross-checks through HBase's Java client (logged
//! in to the same KDC), and the fault tests where a new connection must
//! authenticate again: regions split, merged and moved, region servers
//! stopped and aborted, connections cut and stalled. Run one module with
//! `cargo test -p rowkey-hbase --features kerberos --test native_kerberos
//! servers::`.
#![cfg(feature = "kerberos")]

#[path = "../native/cluster.rs"]
mod cluster;
#[path = "../native/conformance.rs"]
mod conformance;
#[path = "../native/java_checks.rs"]
mod java_checks;

#[path = "../native_faults/harness.rs"]
#[allow(dead_code)]
mod harness;
#[path = "../native_faults/proxy.rs"]
mod proxy;
#[path = "../native_faults/regions.rs"]
mod regions;
#[path = "../native_faults/servers.rs"]
mod servers;

use rowkey_hbase::hbase_native::{Kerberos, Options, Protection};

/// The Kerberized cluster.
pub fn cluster() -> &'static rowkey_fixtures::hbase::HBase {
    rowkey_fixtures::hbase::kerberized_cluster()
}

/// A keytab login that insists on privacy.
pub fn native_options() -> Options {
    let kdc = cluster().kdc.as_ref().expect("a KDC");
    Options::default().kerberos(
        Kerberos::default()
            .keytab(&kdc.client_principal, &kdc.client_keytab)
            .service_principal(format!("hbase/_HOST@{}", kdc.realm))
            .min_protection(Protection::Privacy),
    )
}
