package rowkey.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.LocalHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.util.JVMClusterUtil;

/**
 * What a test does to a running cluster while its client works: split and
 * move regions, move {@code hbase:meta}, run the balancer, stop, abort and
 * start region servers. One command per stdin line of {@link HBaseServer};
 * each answers one stdout line, {@code rowkey-hbase did N RESULT} or
 * {@code rowkey-hbase failed N WHY} (N counts the commands from 1). Rows
 * are lowercase hex ({@code -}: empty); servers are named by their port.
 *
 * <pre>
 * split TABLE ROW     splits the region holding ROW at ROW; waits for both halves
 * merge TABLE ROW     merges the region holding ROW with the one after it; waits
 * move TABLE ROW      moves the region holding ROW to another server; waits
 * move-meta           moves hbase:meta to another server; waits
 * balance             runs the balancer; waits until no region is in transition
 * stop-rs PORT        stops that region server in order; waits until it is gone
 * abort-rs PORT       aborts it as a crash does; waits until it is gone
 * start-rs            starts one more region server; answers its port
 * servers             the live region servers' ports
 * regions TABLE       START@PORT for each region, in key order
 * flush TABLE         flushes the table's memstores to files; waits
 * compact TABLE       major-compacts the table; waits until it is done
 * </pre>
 */
final class ClusterControl {
  private static final long WAIT_MS = 120_000;

  private final LocalHBaseCluster cluster;
  private final Configuration conf;
  private Connection connection;

  ClusterControl(LocalHBaseCluster cluster, Configuration conf) {
    this.cluster = cluster;
    this.conf = conf;
  }

  /** Runs one command line; its result, or throws with why not. */
  String run(String line) throws Exception {
    String[] w = line.trim().split(" ");
    switch (w[0]) {
      case "split":
        return split(TableName.valueOf(w[1]), HBaseServer.unhex(w[2]));
      case "merge":
        return merge(TableName.valueOf(w[1]), HBaseServer.unhex(w[2]));
      case "move":
        // move TABLE HEXROW [PORT]: to that region server, else another.
        return move(
            location(TableName.valueOf(w[1]), HBaseServer.unhex(w[2])),
            w.length > 3 ? Integer.parseInt(w[3]) : -1);
      case "move-meta":
        return move(location(TableName.META_TABLE_NAME, new byte[0]), -1);
      case "balance":
        admin().balancerSwitch(true, true);
        boolean ran = admin().balance();
        settle();
        // Off again: no later chore or move undoes what a test arranges.
        admin().balancerSwitch(false, true);
        return "ran=" + ran;
      case "stop-rs":
      case "abort-rs":
        return stop(Integer.parseInt(w[1]), w[0].equals("abort-rs"));
      case "start-rs":
        JVMClusterUtil.RegionServerThread t = cluster.addRegionServer();
        t.start();
        t.waitForServerOnline();
        return "port=" + t.getRegionServer().getServerName().getPort();
      case "servers":
        return servers();
      case "regions":
        return regions(TableName.valueOf(w[1]));
      case "flush":
        admin().flush(TableName.valueOf(w[1]));
        return "flushed";
      case "compact":
        return compact(TableName.valueOf(w[1]));
      default:
        throw new IllegalArgumentException("unknown command " + w[0]);
    }
  }

  private Admin admin() throws IOException {
    if (connection == null || connection.isClosed()) {
      connection = ConnectionFactory.createConnection(conf);
    }
    return connection.getAdmin();
  }

  private HRegionLocation location(TableName table, byte[] row) throws IOException {
    admin();
    try (RegionLocator locator = connection.getRegionLocator(table)) {
      return locator.getRegionLocation(row, true);
    }
  }

  private String split(TableName table, byte[] row) throws Exception {
    admin().split(table, row);
    waitUntil(
        "region of " + table + " starting at " + HBaseServer.hex(row),
        () -> {
          try {
            for (RegionInfo r : admin().getRegions(table)) {
              if (java.util.Arrays.equals(r.getStartKey(), row) && !r.isOffline() && !r.isSplit()) {
                return true;
              }
            }
            return false;
          } catch (IOException e) {
            return false;
          }
        });
    settle();
    return "regions=" + admin().getRegions(table).size();
  }

  private String merge(TableName table, byte[] row) throws Exception {
    RegionInfo first = location(table, row).getRegion();
    if (first.getEndKey().length == 0) {
      throw new IllegalArgumentException("the region holding the row is the table's last");
    }
    RegionInfo second = location(table, first.getEndKey()).getRegion();
    int before = admin().getRegions(table).size();
    // A region fresh from a split (or a merge) still refers to its parent's
    // files and is not mergeable until a major compaction rewrites them.
    long deadline = System.currentTimeMillis() + WAIT_MS;
    while (true) {
      try {
        admin()
            .mergeRegionsAsync(
                new byte[][] {first.getEncodedNameAsBytes(), second.getEncodedNameAsBytes()},
                false)
            .get(WAIT_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
        break;
      } catch (java.util.concurrent.ExecutionException e) {
        if (!String.valueOf(e.getMessage()).contains("not mergeable")
            || System.currentTimeMillis() > deadline) {
          throw e;
        }
        admin().majorCompactRegion(first.getRegionName());
        admin().majorCompactRegion(second.getRegionName());
        Thread.sleep(500);
      }
    }
    waitUntil(
        "the merge of " + first.getRegionNameAsString(),
        () -> {
          try {
            return admin().getRegions(table).size() == before - 1;
          } catch (IOException e) {
            return false;
          }
        });
    settle();
    return "regions=" + admin().getRegions(table).size();
  }

  private String move(HRegionLocation from, int port) throws Exception {
    ServerName to = null;
    for (ServerName s : admin().getRegionServers()) {
      if (port >= 0 ? s.getPort() == port : !s.equals(from.getServerName())) {
        to = s;
        break;
      }
    }
    if (to == null) {
      throw new IllegalStateException(
          port >= 0 ? "no region server on port " + port : "no other region server to move to");
    }
    RegionInfo region = from.getRegion();
    admin().move(region.getEncodedNameAsBytes(), to);
    ServerName target = to;
    waitUntil(
        "region " + region.getRegionNameAsString() + " on " + target,
        () -> {
          try {
            return location(region.getTable(), region.getStartKey()).getServerName().equals(target);
          } catch (IOException e) {
            return false;
          }
        });
    settle();
    return "from=" + from.getServerName().getPort() + " to=" + to.getPort();
  }

  private String stop(int port, boolean abort) throws Exception {
    List<JVMClusterUtil.RegionServerThread> live = cluster.getLiveRegionServers();
    for (JVMClusterUtil.RegionServerThread t : live) {
      HRegionServer rs = t.getRegionServer();
      if (rs.getServerName().getPort() == port) {
        if (abort) {
          rs.abort("rowkey test: abort-rs " + port);
        } else {
          rs.stop("rowkey test: stop-rs " + port);
        }
        t.join(WAIT_MS);
        // The master has reassigned its regions once none is in transition
        // and none is left on it.
        waitUntil(
            "the regions of " + port + " reassigned",
            () -> {
              try {
                return !admin().getRegionServers().stream().anyMatch(s -> s.getPort() == port);
              } catch (IOException e) {
                return false;
              }
            });
        settle();
        return "stopped=" + port;
      }
    }
    throw new IllegalArgumentException("no live region server on port " + port);
  }

  private String servers() {
    List<String> ports = new ArrayList<>();
    for (JVMClusterUtil.RegionServerThread t : cluster.getLiveRegionServers()) {
      ports.add(Integer.toString(t.getRegionServer().getServerName().getPort()));
    }
    return String.join(",", ports);
  }

  private String regions(TableName table) throws IOException {
    admin();
    List<String> out = new ArrayList<>();
    try (RegionLocator locator = connection.getRegionLocator(table)) {
      for (HRegionLocation l : locator.getAllRegionLocations()) {
        out.add(HBaseServer.hex(l.getRegion().getStartKey()) + "@" + l.getServerName().getPort());
      }
    }
    return String.join(",", out);
  }

  private String compact(TableName table) throws Exception {
    admin().majorCompact(table);
    // The request is queued: wait until a compaction has started and ended.
    Thread.sleep(500);
    waitUntil(
        "the major compaction of " + table,
        () -> {
          try {
            return admin().getCompactionState(table)
                == org.apache.hadoop.hbase.client.CompactionState.NONE;
          } catch (IOException e) {
            return false;
          }
        });
    return "compacted";
  }

  /** Waits until no region is in transition. */
  private void settle() throws Exception {
    waitUntil(
        "no region in transition",
        () -> {
          try {
            return admin().getClusterMetrics().getRegionStatesInTransition().isEmpty();
          } catch (IOException e) {
            return false;
          }
        });
  }

  private static void waitUntil(String what, BooleanSupplier done) throws Exception {
    long deadline = System.currentTimeMillis() + WAIT_MS;
    while (!done.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("waited " + WAIT_MS / 1000 + " s for " + what);
      }
      Thread.sleep(50);
    }
  }
}
