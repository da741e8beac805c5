package rowkey.testing;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/**
 * HBase's own Java client as the peer of rowkey's benchmarks: writes ROWS
 * rows of about 100 bytes with a {@code BufferedMutator} and scans them
 * back with a {@code Scan} of caching 1,000, the same rows as {@link
 * #row}/{@link #value} and the Rust benchmark make.
 *
 * <pre>JavaBench ZK_PORT TABLE ROWS RUNS [WARMUPS]</pre>
 *
 * WARMUPS untimed rounds first (3 by default: the JIT, the connection,
 * the region locations), then RUNS timed rounds, each into a fresh table; each prints
 * {@code write MILLIS} and {@code scan MILLIS ROWS_READ}.
 *
 * <pre>JavaBench ranges ZK_PORT TABLE FILE RUNS WARMUPS</pre>
 *
 * Scans the ranges of FILE (a line each: start and stop row in lowercase
 * hex, {@code -} for none) of an existing TABLE one after the other, each
 * a {@code Scan} of caching 1,000; WARMUPS untimed rounds, then RUNS
 * timed ones, each printing {@code ranges MILLIS ROWS_READ}.
 */
public final class JavaBench {
  private static final byte[] FAMILY = "d".getBytes(StandardCharsets.UTF_8);
  private static final byte[] QUALIFIER = "v".getBytes(StandardCharsets.UTF_8);

  /** Row i's key: 24 bytes, `row` and 21 digits. */
  static byte[] row(int i) {
    return String.format("row%021d", i).getBytes(StandardCharsets.UTF_8);
  }

  /** Row i's value: 72 bytes. */
  static byte[] value(int i) {
    byte[] v = new byte[72];
    Arrays.fill(v, (byte) ('a' + i % 26));
    return v;
  }

  public static void main(String[] args) throws Exception {
    if (args[0].equals("ranges")) {
      ranges(args);
      return;
    }
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.set("hbase.zookeeper.property.clientPort", args[0]);
    // On a Kerberized cluster, as its environment says.
    Kerberos.clientLogin(conf);
    String base = args[1];
    int rows = Integer.parseInt(args[2]);
    int runs = Integer.parseInt(args[3]);
    int warmups = args.length > 4 ? Integer.parseInt(args[4]) : 3;
    try (Connection connection = ConnectionFactory.createConnection(conf)) {
      for (int run = -warmups; run < runs; run++) {
        TableName table = TableName.valueOf(base + "_" + (run + warmups));
        try (Admin admin = connection.getAdmin()) {
          if (admin.tableExists(table)) {
            admin.disableTable(table);
            admin.deleteTable(table);
          }
          admin.createTable(
              TableDescriptorBuilder.newBuilder(table)
                  .setColumnFamily(
                      ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).setMaxVersions(1).build())
                  .build());
        }
        long began = System.nanoTime();
        try (BufferedMutator mutator = connection.getBufferedMutator(table)) {
          for (int i = 0; i < rows; i++) {
            mutator.mutate(new Put(row(i)).addColumn(FAMILY, QUALIFIER, value(i)));
          }
        }
        long wrote = System.nanoTime();
        long read = 0;
        try (Table t = connection.getTable(table);
            ResultScanner scanner = t.getScanner(new Scan().setCaching(1000))) {
          for (Result r : scanner) {
            read += r.size();
          }
        }
        long scanned = System.nanoTime();
        if (run >= 0) {
          System.out.println("write " + (wrote - began) / 1_000_000.0);
          System.out.println("scan " + (scanned - wrote) / 1_000_000.0 + " " + read);
          System.out.flush();
        }
        try (Admin admin = connection.getAdmin()) {
          admin.disableTable(table);
          admin.deleteTable(table);
        }
      }
    }
  }

  private static void ranges(String[] args) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.set("hbase.zookeeper.property.clientPort", args[1]);
    TableName table = TableName.valueOf(args[2]);
    java.util.List<byte[][]> ranges = new java.util.ArrayList<>();
    for (String line : java.nio.file.Files.readAllLines(java.nio.file.Paths.get(args[3]))) {
      String[] w = line.trim().split(" ");
      ranges.add(new byte[][] {HBaseServer.unhex(w[0]), HBaseServer.unhex(w[1])});
    }
    int runs = Integer.parseInt(args[4]);
    int warmups = Integer.parseInt(args[5]);
    try (Connection connection = ConnectionFactory.createConnection(conf);
        Table t = connection.getTable(table)) {
      for (int run = -warmups; run < runs; run++) {
        long began = System.nanoTime();
        long read = 0;
        for (byte[][] range : ranges) {
          Scan scan = new Scan().withStartRow(range[0]).withStopRow(range[1]).setCaching(1000);
          try (ResultScanner scanner = t.getScanner(scan)) {
            for (Result r : scanner) {
              read++;
            }
          }
        }
        long took = System.nanoTime() - began;
        if (run >= 0) {
          System.out.println("ranges " + took / 1_000_000.0 + " " + read);
          System.out.flush();
        }
      }
    }
  }
}
