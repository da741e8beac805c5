package rowkey.testing;

import java.io.File;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.regionserver.HRegionServer;

/**
 * One region server in a JVM of its own, joined to the cluster an
 * HBaseServer runs in DATA_DIR: the server a test kills with SIGKILL, as a
 * crash does. Its ZooKeeper session outlives it until the session timeout,
 * as a real dead server's does (a server stopped or aborted inside the
 * cluster's JVM closes its session at once).
 *
 * <pre>RegionServerProcess DATA_DIR TMP_DIR</pre>
 *
 * Prints {@code rowkey-rs ready port=PORT} once the master has it online;
 * halts when stdin closes.
 */
public final class RegionServerProcess {
  /** The cluster's configuration, as HBaseServer writes it. */
  static final String SITE = "region-server-site.xml";

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: RegionServerProcess DATA_DIR TMP_DIR");
      System.exit(2);
    }
    Thread stdin =
        new Thread(
            () -> {
              try {
                while (System.in.read() >= 0) {}
              } catch (java.io.IOException e) {
                // Gone either way.
              }
              Runtime.getRuntime().halt(0);
            },
            "rowkey-stdin");
    stdin.setDaemon(true);
    stdin.start();
    Configuration conf = HBaseConfiguration.create();
    conf.addResource(new File(args[0], SITE).toURI().toURL());
    conf.set("hbase.tmp.dir", args[1]);
    conf.setInt("hbase.regionserver.port", 0);
    HRegionServer rs = new HRegionServer(conf);
    rs.start();
    long deadline = System.currentTimeMillis() + 120_000;
    while (!rs.isOnline()) {
      if (rs.isStopped() || System.currentTimeMillis() > deadline) {
        System.err.println("rowkey-rs: not ready: the region server did not come online");
        Runtime.getRuntime().halt(4);
      }
      Thread.sleep(100);
    }
    // Online to itself is not yet a server the master assigns regions to
    // (a move at once was never carried out): wait for two reports of its
    // load, as the master counts them.
    Thread.sleep(2L * conf.getInt("hbase.regionserver.msginterval", 3_000));
    System.out.println("rowkey-rs ready port=" + rs.getServerName().getPort());
    System.out.flush();
    rs.join();
  }
}
