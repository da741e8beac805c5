package rowkey.testing;

import java.io.File;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.LinkedHashMap;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.LocalHBaseCluster;
import org.apache.hadoop.hbase.master.HMaster;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.thrift.ThriftServer;
import org.apache.hadoop.hbase.thrift.generated.ColumnDescriptor;
import org.apache.hadoop.hbase.thrift.generated.Hbase;
import org.apache.hadoop.hbase.thrift.generated.Mutation;
import org.apache.hadoop.hbase.thrift.generated.TRowResult;
import org.apache.hadoop.hbase.zookeeper.MiniZooKeeperCluster;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;

/**
 * A standalone HBase (master and region server in this JVM, its own
 * ZooKeeper, the local filesystem under the data directory) and HBase's own
 * Thrift 1 server on a loopback port, for rowkey's tests and demo.
 *
 * <pre>HBaseServer DATA_DIR [THRIFT_PORT]</pre>
 *
 * THRIFT_PORT 0 (the default) takes a free port. Prints
 * {@code rowkey-hbase ready thrift=PORT zk=PORT ms=MILLIS} on stdout once a table has
 * been created, written, read and dropped through the Thrift server, and
 * only then (MILLIS: from start-up to ready, JVM start-up not counted).
 * Stops when stdin closes or on SIGTERM/SIGINT, then deletes DATA_DIR if it
 * made it; the JVM halts after a grace period whatever HBase's threads are
 * doing (the master does not always exit in standalone mode). A harness
 * that keeps one server per process never stops it: the server goes when
 * the process exits and its end of the stdin pipe closes.
 */
public final class HBaseServer {
  /** How long an orderly shutdown may take before the JVM halts. */
  private static final long GRACE_MS = 5_000;

  public static void main(String[] args) {
    if (args.length < 1) {
      System.err.println("usage: HBaseServer DATA_DIR [THRIFT_PORT] [--gateways] [--kerberos] [--ticket-lifetime=SECONDS] [--region-servers=N] [KEY=VALUE...]");
      System.exit(2);
    }
    File data = new File(args[0]).getAbsoluteFile();
    int thriftPort = args.length > 1 ? Integer.parseInt(args[1]) : 0;
    // --gateways: also a framed and a compact Thrift 1 server and a Thrift
    // 2 server, for the tests of a client that meets the wrong one.
    // KEY=VALUE: HBase configuration (a short scanner lease, say).
    boolean gateways = false;
    // --region-servers=N: a master and N region servers in this JVM, and
    // cluster commands on stdin (ClusterControl).
    int regionServers = 1;
    // --kerberos: a KDC in this JVM and a cluster that demands Kerberos
    // (Kerberos.java); the ready line adds realm= and kdc=.
    boolean kerberos = false;
    // --ticket-lifetime=SECONDS: the KDC's longest ticket (--kerberos).
    long ticketLifetime = 0;
    Map<String, String> settings = new LinkedHashMap<>();
    for (int i = 2; i < args.length; i++) {
      if (args[i].equals("--gateways")) {
        gateways = true;
      } else if (args[i].equals("--kerberos")) {
        kerberos = true;
      } else if (args[i].startsWith("--ticket-lifetime=")) {
        ticketLifetime = Long.parseLong(args[i].substring("--ticket-lifetime=".length()));
      } else if (args[i].startsWith("--region-servers=")) {
        regionServers = Integer.parseInt(args[i].substring("--region-servers=".length()));
      } else if (args[i].contains("=")) {
        String[] kv = args[i].split("=", 2);
        settings.put(kv[0], kv[1]);
      } else {
        System.err.println("rowkey-hbase: not ready: unknown argument " + args[i]);
        System.exit(2);
      }
    }
    // Watched from the start: a harness that dies while HBase is still
    // starting must not leave the JVM behind for the whole ready check.
    Thread stdin = new Thread(HBaseServer::untilStdinCloses, "rowkey-stdin");
    stdin.setDaemon(true);
    stdin.start();
    // Only a directory this server made is deleted when it stops: a
    // mistyped DATA_DIR must never cost anyone their files.
    boolean ours = !data.exists();
    if (!data.isDirectory() && !data.mkdirs()) {
      System.err.println("rowkey-hbase: not ready: cannot create the data directory " + data);
      System.exit(4);
    }
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> stop(ours ? data : null), "rowkey-stop"));
    try {
      long started = System.nanoTime();
      int[] ports = start(data, thriftPort, settings, regionServers, kerberos, ticketLifetime);
      String why = readyCheck(ports[0], 120_000);
      if (why != null) {
        System.err.println("rowkey-hbase: not ready: " + why);
        System.exit(4);
      }
      String extra = (gateways ? startGateways() : "") + kerberosInfo;
      long ms = (System.nanoTime() - started) / 1_000_000;
      System.out.println(
          "rowkey-hbase ready thrift="
              + ports[0]
              + " zk="
              + ports[1]
              + " master="
              + cluster.getActiveMaster().getServerName().getPort()
              + extra
              + " ms="
              + ms);
      System.out.flush();
    } catch (Throwable t) {
      System.err.println("rowkey-hbase: not ready: " + causes(t));
      t.printStackTrace();
      System.exit(4);
    }
  }

  // What stop() shuts down, set as start() brings each part up (stop may
  // run while start is still going).
  private static volatile MiniZooKeeperCluster zk;
  // " realm=R kdc=PORT" for the ready line, with --kerberos.
  private static volatile String kerberosInfo = "";
  private static volatile LocalHBaseCluster cluster;
  private static volatile ThriftServer thrift;
  private static final List<ThriftServer> EXTRA = new CopyOnWriteArrayList<>();
  private static volatile Configuration configuration;
  private static volatile ClusterControl control;

  /** Starts ZooKeeper, HBase and Thrift; returns {thrift port, zk port}. */
  private static int[] start(
      File data,
      int thriftPort,
      Map<String, String> settings,
      int regionServers,
      boolean kerberos,
      long ticketLifetime)
      throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.setBoolean("hbase.cluster.distributed", false);
    conf.set("hbase.rootdir", new File(data, "hbase").toURI().toString());
    conf.set("hbase.tmp.dir", new File(data, "tmp").getPath());
    conf.set("hbase.zookeeper.property.dataDir", new File(data, "zk").getPath());
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    // The local filesystem has no hflush/hsync capability (HBASE-20354).
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    // Every port free or off: parallel runs never clash.
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
    conf.setInt("hbase.thrift.info.port", -1);
    conf.setBoolean(LocalHBaseCluster.ASSIGN_RANDOM_PORTS, true);
    conf.set("hbase.master.ipc.address", "127.0.0.1");
    conf.set("hbase.regionserver.ipc.address", "127.0.0.1");
    // Small and quick: one region server, no balancer churn.
    conf.setInt("hbase.regionserver.handler.count", 30);
    // Regions move only when a test says so: the balancer's chore (every
    // 5 min by default) would otherwise move a region a test just moved,
    // mid-wait, once a cluster has run that long. The `balance` command
    // still runs the balancer on demand.
    conf.setInt("hbase.balancer.period", Integer.MAX_VALUE);
    conf.setInt("hbase.master.wait.on.regionservers.mintostart", regionServers);
    // A compaction's old files stay in the store (and a daughter's reference
    // files keep it unmergeable, HBASE-20940) until this chore runs: 2 min
    // by default, longer than a test waits for a merge.
    conf.setInt("hbase.hfile.compaction.discharger.interval", 1_000);
    if (regionServers > 1) {
      // A region server that dies is noticed in seconds, not the default 90.
      conf.setInt("zookeeper.session.timeout", 6_000);
    }
    for (Map.Entry<String, String> e : settings.entrySet()) {
      conf.set(e.getKey(), e.getValue());
    }
    if (kerberos) {
      kerberosInfo = Kerberos.secure(conf, data, ticketLifetime);
    }
    configuration = conf;

    // Several region servers in one JVM register the same metrics sources;
    // mini-cluster mode lets them (as HBase's own test utility does).
    org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.setMiniClusterMode(true);
    MiniZooKeeperCluster keeper = new MiniZooKeeperCluster(conf);
    zk = keeper;
    int zkPort = keeper.startup(new File(data, "zk"));
    conf.setInt("hbase.zookeeper.property.clientPort", zkPort);
    // What a region server in a JVM of its own (RegionServerProcess) needs
    // to join this cluster.
    try (java.io.OutputStream out =
        new java.io.FileOutputStream(new File(data, RegionServerProcess.SITE))) {
      conf.writeXml(out);
    }

    LocalHBaseCluster local =
        new LocalHBaseCluster(conf, 1, regionServers, HMaster.class, HRegionServer.class);
    cluster = local;
    local.startup();
    control = new ClusterControl(local, conf);

    if (thriftPort == 0) {
      thriftPort = freePort();
    }
    ThriftServer server = new ThriftServer(conf);
    thrift = server;
    String[] thriftArgs = {"-b", "127.0.0.1", "-p", Integer.toString(thriftPort), "start"};
    Thread serving =
        new Thread(
            () -> {
              try {
                server.run(thriftArgs);
              } catch (Exception e) {
                System.err.println("rowkey-hbase: the Thrift server stopped: " + e);
                e.printStackTrace();
                // exit, not halt: the shutdown hook deletes the data. (While
                // the hook already runs, this blocks a daemon thread: harmless.)
                System.exit(3);
              }
            },
            "rowkey-thrift");
    serving.setDaemon(true);
    serving.start();
    return new int[] {thriftPort, zkPort};
  }

  /**
   * Starts HBase's other gateways on free ports, each once its port
   * accepts: a framed and a compact Thrift 1 server and a Thrift 2 server.
   * Returns " framed=P compact=P thrift2=P".
   */
  private static String startGateways() throws Exception {
    StringBuilder ports = new StringBuilder();
    String[][] kinds = {{"framed", "-f"}, {"compact", "-c"}, {"thrift2", null}};
    for (String[] kind : kinds) {
      int port = freePort();
      ThriftServer server =
          kind[1] == null
              ? new org.apache.hadoop.hbase.thrift2.ThriftServer(configuration)
              : new ThriftServer(configuration);
      EXTRA.add(server);
      List<String> args = new ArrayList<>(List.of("-b", "127.0.0.1", "-p", Integer.toString(port)));
      if (kind[1] != null) {
        args.add(kind[1]);
      }
      args.add("start");
      Thread serving =
          new Thread(
              () -> {
                try {
                  server.run(args.toArray(new String[0]));
                } catch (Exception e) {
                  System.err.println("rowkey-hbase: the " + kind[0] + " gateway stopped: " + e);
                }
              },
              "rowkey-" + kind[0]);
      serving.setDaemon(true);
      serving.start();
      long deadline = System.currentTimeMillis() + 60_000;
      while (true) {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
          break;
        } catch (IOException e) {
          if (System.currentTimeMillis() > deadline) {
            throw new IOException("the " + kind[0] + " gateway did not open port " + port);
          }
          Thread.sleep(100);
        }
      }
      ports.append(' ').append(kind[0]).append('=').append(port);
    }
    return ports.toString();
  }

  /**
   * Runs each stdin line as a cluster command (ClusterControl) once HBase
   * is up, answering on stdout; exits once stdin closes (the harness died
   * or closed it).
   */
  private static void untilStdinCloses() {
    java.io.BufferedReader in =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8));
    long n = 0;
    try {
      String line;
      while ((line = in.readLine()) != null) {
        n++;
        String answer;
        try {
          ClusterControl c = control;
          if (c == null) {
            throw new IllegalStateException("HBase is not up yet");
          }
          answer = "did " + n + " " + c.run(line);
        } catch (Throwable t) {
          answer = "failed " + n + " " + causes(t);
        }
        synchronized (System.out) {
          System.out.println("rowkey-hbase " + answer);
          System.out.flush();
        }
      }
    } catch (IOException e) {
      // a broken stdin is a closed one
    }
    System.exit(0);
  }

  static String hex(byte[] bytes) {
    if (bytes.length == 0) {
      return "-";
    }
    StringBuilder s = new StringBuilder();
    for (byte b : bytes) {
      s.append(String.format("%02x", b & 0xff));
    }
    return s.toString();
  }

  static byte[] unhex(String text) {
    return Hex.unhex(text);
  }

  /**
   * The shutdown hook: Thrift, HBase, ZooKeeper, then the data directory
   * (null: not ours to delete). A halt after the grace period ends the JVM
   * whatever HBase's threads are doing, deleting the directory first if the
   * orderly path has not got that far.
   */
  private static void stop(File data) {
    Thread halt =
        new Thread(
            () -> {
              try {
                Thread.sleep(GRACE_MS);
              } catch (InterruptedException e) {
                // halting now
              }
              deleteTree(data);
              Runtime.getRuntime().halt(0);
            },
            "rowkey-halt");
    halt.setDaemon(true);
    halt.start();
    for (ThriftServer extra : EXTRA) {
      try {
        extra.stop();
      } catch (Throwable t) {
        // going down anyway
      }
    }
    ThriftServer server = thrift;
    if (server != null) {
      try {
        server.stop();
      } catch (Throwable t) {
        // going down anyway
      }
    }
    LocalHBaseCluster local = cluster;
    if (local != null) {
      try {
        local.shutdown();
      } catch (Throwable t) {
        // going down anyway
      }
    }
    MiniZooKeeperCluster keeper = zk;
    if (keeper != null) {
      try {
        keeper.shutdown();
      } catch (Throwable t) {
        // going down anyway
      }
    }
    try {
      Kerberos.stop();
    } catch (Throwable t) {
      // going down anyway
    }
    deleteTree(data);
  }

  /** Deletes a directory tree, best effort (files may still be appearing). */
  private static void deleteTree(File root) {
    if (root == null || !root.exists()) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root.toPath())) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // best effort: whatever is left is in the temp directory
    }
  }

  /** An exception and its causes, on one line. */
  private static String causes(Throwable t) {
    StringBuilder s = new StringBuilder(t.toString());
    for (Throwable c = t.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
      s.append(" <- ").append(c);
    }
    return s.toString().replace('\n', ' ');
  }

  /** A port that was free a moment ago on the loopback address. */
  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress("127.0.0.1", 0));
      return s.getLocalPort();
    }
  }

  /**
   * Creates a table through the Thrift server, writes a row, reads it
   * back and drops the table, retrying until it works or the deadline
   * passes; null when it worked, else what failed last.
   */
  private static String readyCheck(int port, long timeoutMs) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    String last = "nothing tried";
    ByteBuffer table = utf8("rowkey_ready_check");
    while (System.currentTimeMillis() < deadline) {
      TSocket socket = null;
      try {
        socket = new TSocket("127.0.0.1", port);
        socket.open();
        Hbase.Client client = new Hbase.Client(new TBinaryProtocol(socket));
        List<ByteBuffer> tables = client.getTableNames();
        if (!tables.contains(table)) {
          ColumnDescriptor family = new ColumnDescriptor();
          family.setName(utf8("d:"));
          family.setMaxVersions(1);
          family.setCompression("NONE");
          family.setBloomFilterType("NONE");
          family.setTimeToLive(-1);
          client.createTable(table, Collections.singletonList(family));
        }
        Map<ByteBuffer, ByteBuffer> none = Collections.emptyMap();
        List<Mutation> put = new ArrayList<>();
        put.add(new Mutation(false, utf8("d:q"), utf8("v"), true));
        client.mutateRow(table, utf8("row"), put, none);
        List<TRowResult> got = client.getRow(table, utf8("row"), none);
        if (got.size() == 1) {
          client.disableTable(table);
          client.deleteTable(table);
          return null;
        }
        last = "the row written was not read back";
      } catch (Exception e) {
        last = causes(e);
      } finally {
        if (socket != null) {
          socket.close();
        }
      }
      Thread.sleep(250);
    }
    return "no table could be created, written and read through Thrift in "
        + timeoutMs / 1000
        + " s; last: "
        + last;
  }

  private static ByteBuffer utf8(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }
}
