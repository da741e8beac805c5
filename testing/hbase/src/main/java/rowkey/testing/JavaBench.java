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
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.set("hbase.zookeeper.property.clientPort", args[0]);
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
}
