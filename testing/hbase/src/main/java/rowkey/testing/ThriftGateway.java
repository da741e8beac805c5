package rowkey.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.thrift.ThriftServer;
import org.apache.hadoop.hbase.thrift.generated.Hbase;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;

/**
 * HBase's Thrift 1 server in a JVM of its own, in front of a running HBase
 * found through its ZooKeeper, so that a test can kill (SIGKILL, SIGTERM),
 * stop (SIGSTOP) and restart the gateway by its pid while HBase keeps
 * serving: what a deployment's Thrift server does when it restarts.
 *
 * <pre>ThriftGateway ZK_PORT THRIFT_PORT [--until-stdin-closes]</pre>
 *
 * Prints {@code rowkey-thrift ready thrift=PORT} once a getTableNames call
 * through it answers. With {@code --until-stdin-closes} it also exits when
 * its stdin closes (the harness that started it died).
 */
public final class ThriftGateway {
  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: ThriftGateway ZK_PORT THRIFT_PORT [--until-stdin-closes]");
      System.exit(2);
    }
    int zkPort = Integer.parseInt(args[0]);
    int port = Integer.parseInt(args[1]);
    if (args.length > 2 && args[2].equals("--until-stdin-closes")) {
      Thread stdin = new Thread(ThriftGateway::untilStdinCloses, "rowkey-stdin");
      stdin.setDaemon(true);
      stdin.start();
    }
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zkPort);
    conf.setInt("hbase.thrift.info.port", -1);
    // A dead gateway's client must not wait out HBase's default retries.
    conf.setInt("hbase.client.retries.number", 3);
    ThriftServer server = new ThriftServer(conf);
    String[] serverArgs = {"-b", "127.0.0.1", "-p", Integer.toString(port), "start"};
    Thread serving =
        new Thread(
            () -> {
              try {
                server.run(serverArgs);
              } catch (Exception e) {
                System.err.println("rowkey-thrift: stopped: " + e);
                System.exit(3);
              }
            },
            "rowkey-thrift");
    serving.start();
    long deadline = System.currentTimeMillis() + 120_000;
    String last = "nothing tried";
    while (System.currentTimeMillis() < deadline) {
      TSocket socket = new TSocket("127.0.0.1", port);
      try {
        socket.open();
        List<ByteBuffer> names = new Hbase.Client(new TBinaryProtocol(socket)).getTableNames();
        System.out.println("rowkey-thrift ready thrift=" + port + " tables=" + names.size());
        System.out.flush();
        serving.join();
        return;
      } catch (Exception e) {
        last = e.toString();
      } finally {
        socket.close();
      }
      Thread.sleep(100);
    }
    System.err.println("rowkey-thrift: not ready: " + last);
    System.exit(4);
  }

  private static void untilStdinCloses() {
    InputStream in = System.in;
    byte[] sink = new byte[256];
    try {
      while (in.read(sink) >= 0) {
        // a closed stdin is the signal
      }
    } catch (IOException e) {
      // a broken stdin is a closed one
    }
    Runtime.getRuntime().halt(0);
  }
}
