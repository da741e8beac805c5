package rowkey.testing;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.FuzzyRowFilter;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hbase.util.Pair;

/**
 * HBase's own Java client, one request per stdin line, so that one JVM
 * answers a whole test's questions: what FuzzyRowFilter,
 * MultiRowRangeFilter and a reversed scan return, and how HBase's {@code Bytes} reads a cell.
 *
 * <pre>HBaseClient ZK_PORT</pre>
 *
 * Connects through the ZooKeeper on 127.0.0.1:ZK_PORT. Each line is a
 * command, its arguments separated by single spaces, bytes in lowercase hex
 * ({@code -}: empty). Each answer is zero or more lines, then {@code OK},
 * or else the single line {@code ERR <message>}:
 *
 * <pre>
 * fuzzy TABLE START STOP ROW MASK [ROW MASK...]  row keys, hex (mask 0 fixed, 1 any)
 * ranges TABLE START STOP [START STOP...]       row keys, hex, by MultiRowRangeFilter (STOP - : none)
 * keys TABLE                                     HEX TAB Bytes.toStringBinary, every row
 * reversed TABLE START STOP                      row keys, hex (START inclusive, STOP exclusive)
 * cell TABLE ROW FAMILY QUALIFIER KIND           the value by Bytes.toKIND, or ERR no cell
 * create TABLE FAMILY...                         a table, one version per cell
 * put TABLE ROW FAMILY QUALIFIER VALUE           one cell
 * drop TABLE                                     disables and deletes a table
 * </pre>
 *
 * KIND: long, int, short, double, float, string, bigdecimal, boolean,
 * binary (toStringBinary) or hex (the raw bytes). Exits when stdin closes.
 */
public final class HBaseClient {
  /** A request that failed in a way the caller asked for, not a crash. */
  private static final class Failure extends Exception {
    Failure(String message) {
      super(message);
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: HBaseClient ZK_PORT");
      System.exit(2);
    }
    // The protocol owns stdout: anything a library prints goes to stderr.
    PrintStream out =
        new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err);

    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", Integer.parseInt(args[0]));
    // An error within a minute, before the harness stops waiting (120 s).
    conf.setInt("hbase.client.operation.timeout", 60_000);
    conf.setInt("hbase.client.retries.number", 5);
    // On a Kerberized cluster, as its environment says.
    Kerberos.clientLogin(conf);

    Connection conn = ConnectionFactory.createConnection(conf);
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isEmpty()) {
        continue;
      }
      // An answer is printed whole or not at all: an ERR carries no rows.
      List<String> rows = new ArrayList<>();
      String end = "OK";
      try {
        run(conn, line.split(" ", -1), rows);
      } catch (Failure f) {
        rows.clear();
        end = "ERR " + f.getMessage();
      } catch (Throwable t) {
        rows.clear();
        end = "ERR " + t.getClass().getName() + ": " + t.getMessage();
      }
      for (String row : rows) {
        out.println(row);
      }
      out.println(end.replace('\n', ' ').replace('\r', ' '));
      out.flush();
    }
    // Nothing to save: no need to wait for the connection's threads.
    Runtime.getRuntime().halt(0);
  }

  private static void run(Connection conn, String[] a, List<String> rows) throws Exception {
    switch (a[0]) {
      case "fuzzy":
        {
          if (a.length < 6 || a.length % 2 != 0) {
            throw new Failure("usage: fuzzy TABLE START STOP ROW MASK [ROW MASK...]");
          }
          List<Pair<byte[], byte[]>> pairs = new ArrayList<>();
          for (int i = 4; i < a.length; i += 2) {
            pairs.add(new Pair<>(hex(a[i]), hex(a[i + 1])));
          }
          Scan scan =
              new Scan()
                  .withStartRow(hex(a[2]))
                  .withStopRow(hex(a[3]))
                  .setFilter(new FuzzyRowFilter(pairs));
          scanKeys(conn, a[1], scan, rows, false);
          return;
        }
      case "ranges":
        {
          if (a.length < 4 || a.length % 2 != 0) {
            throw new Failure("usage: ranges TABLE START STOP [START STOP...]");
          }
          List<MultiRowRangeFilter.RowRange> ranges = new ArrayList<>();
          for (int i = 2; i < a.length; i += 2) {
            // An empty stop row is no stop, as for a Scan.
            ranges.add(new MultiRowRangeFilter.RowRange(hex(a[i]), true, hex(a[i + 1]), false));
          }
          scanKeys(conn, a[1], new Scan().setFilter(new MultiRowRangeFilter(ranges)), rows, false);
          return;
        }
      case "keys":
        arity(a, 2, "keys TABLE");
        scanKeys(conn, a[1], new Scan(), rows, true);
        return;
      case "reversed":
        {
          arity(a, 4, "reversed TABLE START STOP");
          Scan scan = new Scan().withStartRow(hex(a[2])).withStopRow(hex(a[3])).setReversed(true);
          scanKeys(conn, a[1], scan, rows, false);
          return;
        }
      case "cell":
        {
          arity(a, 6, "cell TABLE ROW FAMILY QUALIFIER KIND");
          byte[] family = Bytes.toBytes(a[3]);
          byte[] qualifier = hex(a[4]);
          byte[] v;
          try (Table table = conn.getTable(TableName.valueOf(a[1]))) {
            v = table.get(new Get(hex(a[2])).addColumn(family, qualifier)).getValue(family, qualifier);
          }
          if (v == null) {
            throw new Failure("no cell");
          }
          rows.add(read(v, a[5]));
          return;
        }
      case "create":
        {
          if (a.length < 3) {
            throw new Failure("usage: create TABLE FAMILY...");
          }
          TableDescriptorBuilder table = TableDescriptorBuilder.newBuilder(TableName.valueOf(a[1]));
          for (int i = 2; i < a.length; i++) {
            table.setColumnFamily(ColumnFamilyDescriptorBuilder.of(a[i]));
          }
          try (Admin admin = conn.getAdmin()) {
            admin.createTable(table.build());
          }
          return;
        }
      case "put":
        arity(a, 6, "put TABLE ROW FAMILY QUALIFIER VALUE");
        try (Table table = conn.getTable(TableName.valueOf(a[1]))) {
          table.put(new Put(hex(a[2])).addColumn(Bytes.toBytes(a[3]), hex(a[4]), hex(a[5])));
        }
        return;
      case "drop":
        arity(a, 2, "drop TABLE");
        try (Admin admin = conn.getAdmin()) {
          TableName name = TableName.valueOf(a[1]);
          admin.disableTable(name);
          admin.deleteTable(name);
        }
        return;
      default:
        throw new Failure("unknown command " + a[0]);
    }
  }

  private static void arity(String[] a, int n, String usage) throws Failure {
    if (a.length != n) {
      throw new Failure("usage: " + usage);
    }
  }

  /** The row keys a scan returns, hex, with toStringBinary after a tab if asked. */
  private static void scanKeys(
      Connection conn, String table, Scan scan, List<String> rows, boolean binary)
      throws Exception {
    try (Table t = conn.getTable(TableName.valueOf(table));
        ResultScanner results = t.getScanner(scan)) {
      for (Result r : results) {
        byte[] key = r.getRow();
        rows.add(binary ? hex(key) + "\t" + Bytes.toStringBinary(key) : hex(key));
      }
    }
  }

  /** A cell's value as HBase's Bytes reads it. */
  private static String read(byte[] v, String kind) throws Failure {
    switch (kind) {
      case "long":
        return Long.toString(Bytes.toLong(v));
      case "int":
        return Integer.toString(Bytes.toInt(v));
      case "short":
        return Short.toString(Bytes.toShort(v));
      case "double":
        return Double.toString(Bytes.toDouble(v));
      case "float":
        return Float.toString(Bytes.toFloat(v));
      case "string":
        return Bytes.toString(v);
      case "bigdecimal":
        return Bytes.toBigDecimal(v).toString();
      case "boolean":
        return Boolean.toString(Bytes.toBoolean(v));
      case "binary":
        return Bytes.toStringBinary(v);
      case "hex":
        return hex(v);
      default:
        throw new Failure("unknown kind " + kind);
    }
  }

  /** Bytes from lowercase hex; "-" is empty (an unbounded scan end). */
  private static byte[] hex(String s) throws Failure {
    if (s.equals("-")) {
      return new byte[0];
    }
    if (s.length() % 2 != 0) {
      throw new Failure("odd-length hex " + s);
    }
    byte[] b = new byte[s.length() / 2];
    for (int i = 0; i < b.length; i++) {
      int hi = Character.digit(s.charAt(2 * i), 16);
      int lo = Character.digit(s.charAt(2 * i + 1), 16);
      if (hi < 0 || lo < 0) {
        throw new Failure("not hex: " + s);
      }
      b[i] = (byte) (hi << 4 | lo);
    }
    return b;
  }

  private static String hex(byte[] b) {
    if (b.length == 0) {
      return "-";
    }
    StringBuilder s = new StringBuilder(2 * b.length);
    for (byte x : b) {
      s.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
    }
    return s.toString();
  }
}
