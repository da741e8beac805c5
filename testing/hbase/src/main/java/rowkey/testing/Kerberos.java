package rowkey.testing;

import java.io.File;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * A Kerberized HBase: an in-process KDC (MiniKdc, Apache Kerby) on a free
 * loopback port, one service principal {@code hbase/localhost} in a keytab
 * under the data directory, and the master, region servers and Thrift
 * server logged in from it. ZooKeeper stays unauthenticated (no JAAS
 * section), as HBase's znodes for meta and the master are world-readable
 * in secure clusters, so a client finds the cluster through it.
 *
 * <p>For a client: a principal {@code rowkey} in {@code kdc/client.keytab}
 * and a krb5.conf for MIT Kerberos in {@code kdc/krb5-client.conf} (TCP to
 * this KDC, no DNS canonicalization: {@code hbase/localhost} is the name).
 */
final class Kerberos {
  private static volatile MiniKdc kdc;

  private Kerberos() {}

  /**
   * Starts the KDC under {@code data}/kdc and sets {@code conf} (and the
   * JVM's krb5.conf) for a cluster that demands Kerberos; logs this JVM in.
   */
  static String secure(Configuration conf, File data, long ticketLifetimeSeconds)
      throws Exception {
    File dir = new File(data, "kdc");
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new java.io.IOException("cannot create " + dir);
    }
    Properties settings = MiniKdc.createConf();
    settings.setProperty(MiniKdc.KDC_BIND_ADDRESS, "127.0.0.1");
    if (ticketLifetimeSeconds > 0) {
      // Tickets that run out during a test: a client must log in again.
      // In seconds (Kerby's unit), the shortest allowed as short.
      String seconds = Long.toString(ticketLifetimeSeconds);
      settings.setProperty(MiniKdc.MAX_TICKET_LIFETIME, seconds);
      settings.setProperty(MiniKdc.MIN_TICKET_LIFETIME, seconds);
      settings.setProperty(MiniKdc.MAX_RENEWABLE_LIFETIME, seconds);
    }
    MiniKdc started = new MiniKdc(settings, dir);
    started.start(); // also points java.security.krb5.conf at its krb5.conf
    kdc = started;
    File keytab = new File(dir, "hbase.keytab");
    started.createPrincipal(keytab, "hbase/localhost");
    started.createPrincipal(new File(dir, "client.keytab"), "rowkey");
    String client =
        "[libdefaults]\n"
            + "  default_realm = " + started.getRealm() + "\n"
            + "  udp_preference_limit = 1\n"
            + "  dns_lookup_kdc = false\n"
            + "  dns_lookup_realm = false\n"
            + "  dns_canonicalize_hostname = false\n"
            + "  rdns = false\n"
            + "  ignore_acceptor_hostname = false\n"
            // MiniKdc's maximum is not applied to what a client asks for:
            // a client of this file asks for the short life itself.
            + (ticketLifetimeSeconds > 0
                ? "  ticket_lifetime = " + ticketLifetimeSeconds + "s\n"
                : "")
            + "[realms]\n"
            + "  " + started.getRealm() + " = {\n"
            + "    kdc = 127.0.0.1:" + started.getPort() + "\n"
            + "  }\n";
    java.nio.file.Files.write(
        new File(dir, "krb5-client.conf").toPath(),
        client.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    String principal = "hbase/localhost@" + started.getRealm();
    String path = keytab.getAbsolutePath();
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("hbase.security.authentication", "kerberos");
    for (String role : new String[] {"master", "regionserver"}) {
      conf.set("hbase." + role + ".kerberos.principal", principal);
      conf.set("hbase." + role + ".keytab.file", path);
    }
    // Delegation tokens: the coprocessor that issues them.
    conf.set(
        "hbase.coprocessor.region.classes", "org.apache.hadoop.hbase.security.token.TokenProvider");
    conf.set("hbase.thrift.kerberos.principal", principal);
    conf.set("hbase.thrift.keytab.file", path);
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation.loginUserFromKeytab(principal, path);
    return " realm=" + started.getRealm() + " kdc=" + started.getPort();
  }

  /**
   * A client's TLS ({@code ROWKEY_TLS_TRUSTSTORE}: a PEM CA file) and
   * login to a Kerberized cluster, when its environment names one (the
   * harness's {@code Kdc::java_env}): {@code ROWKEY_KRB5_CONF},
   * {@code ROWKEY_KEYTAB}, {@code ROWKEY_PRINCIPAL}, {@code
   * ROWKEY_SERVICE_PRINCIPAL} and {@code ROWKEY_RPC_PROTECTION}. Logs in
   * from the keytab, as a service does, at the cluster's protection level.
   */
  static void clientLogin(Configuration conf) throws java.io.IOException {
    // TLS to the servers, trusting the CA in this PEM file.
    String trust = System.getenv("ROWKEY_TLS_TRUSTSTORE");
    if (trust != null) {
      conf.setBoolean("hbase.client.netty.tls.enabled", true);
      conf.set("hbase.rpc.tls.truststore.location", trust);
      conf.set("hbase.rpc.tls.truststore.type", "PEM");
    }
    String krb5 = System.getenv("ROWKEY_KRB5_CONF");
    if (krb5 == null) {
      return;
    }
    System.setProperty("java.security.krb5.conf", krb5);
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("hbase.security.authentication", "kerberos");
    conf.set("hbase.regionserver.kerberos.principal", System.getenv("ROWKEY_SERVICE_PRINCIPAL"));
    conf.set("hbase.master.kerberos.principal", System.getenv("ROWKEY_SERVICE_PRINCIPAL"));
    conf.set("hbase.rpc.protection", System.getenv("ROWKEY_RPC_PROTECTION"));
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation.loginUserFromKeytab(
        System.getenv("ROWKEY_PRINCIPAL"), System.getenv("ROWKEY_KEYTAB"));
  }

  /** Stops the KDC, if one runs. */
  static void stop() {
    MiniKdc running = kdc;
    if (running != null) {
      running.stop();
    }
  }
}
