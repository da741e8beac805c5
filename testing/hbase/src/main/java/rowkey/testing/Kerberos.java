package rowkey.testing;

import java.io.File;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * A Kerberized HBase for the tests of a client that does not speak SASL:
 * an in-process KDC (MiniKdc, Apache Kerby) on a free loopback port, one
 * service principal {@code hbase/localhost} in a keytab under the data
 * directory, and the master, region servers and Thrift server logged in
 * from it. ZooKeeper stays unauthenticated (no JAAS section), so a client
 * can still find the cluster and then meet the refusal at the RPC server.
 */
final class Kerberos {
  private static volatile MiniKdc kdc;

  private Kerberos() {}

  /**
   * Starts the KDC under {@code data}/kdc and sets {@code conf} (and the
   * JVM's krb5.conf) for a cluster that demands Kerberos; logs this JVM in.
   */
  static void secure(Configuration conf, File data) throws Exception {
    File dir = new File(data, "kdc");
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new java.io.IOException("cannot create " + dir);
    }
    Properties settings = MiniKdc.createConf();
    settings.setProperty(MiniKdc.KDC_BIND_ADDRESS, "127.0.0.1");
    MiniKdc started = new MiniKdc(settings, dir);
    started.start(); // also points java.security.krb5.conf at its krb5.conf
    kdc = started;
    File keytab = new File(dir, "hbase.keytab");
    started.createPrincipal(keytab, "hbase/localhost");
    String principal = "hbase/localhost@" + started.getRealm();
    String path = keytab.getAbsolutePath();
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("hbase.security.authentication", "kerberos");
    for (String role : new String[] {"master", "regionserver"}) {
      conf.set("hbase." + role + ".kerberos.principal", principal);
      conf.set("hbase." + role + ".keytab.file", path);
    }
    conf.set("hbase.thrift.kerberos.principal", principal);
    conf.set("hbase.thrift.keytab.file", path);
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation.loginUserFromKeytab(principal, path);
  }

  /** Stops the KDC, if one runs. */
  static void stop() {
    MiniKdc running = kdc;
    if (running != null) {
      running.stop();
    }
  }
}
