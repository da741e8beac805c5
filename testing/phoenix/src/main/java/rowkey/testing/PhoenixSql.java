package rowkey.testing;

import static rowkey.testing.PhoenixCodec.hex;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Phoenix's JDBC driver, one SQL statement per stdin line, for rowkey's
 * Phoenix tests. {@code java rowkey.testing.PhoenixSql ZKPORT} connects to
 * {@code jdbc:phoenix:127.0.0.1:ZKPORT} (the first connection creates
 * Phoenix's SYSTEM tables), prints {@code rowkey-phoenix ready ms=MILLIS},
 * then answers each line:
 *
 * <ul>
 *   <li>a query: {@code row V1 V2 ...} for each row, each value as
 *       {@code ResultSet.getString} gives it (a {@code TIMESTAMP} as {@code
 *       ts:MILLIS:SUBMILLINANOS}) with every byte outside
 *       printable ASCII, space and backslash as {@code \xHH}, a null as
 *       {@code \N}; then {@code end ROWS};
 *   <li>any other statement: {@code end COUNT} (the update count), after a
 *       commit;
 *   <li>{@code raw TABLE}: every cell of the HBase table TABLE, scanned with
 *       HBase's client, as {@code cell ROW FAMILY QUALIFIER TIMESTAMP TYPE
 *       VALUE} (bytes in hex, {@code -} for none), then {@code end CELLS};
 *   <li>{@code bench-upsert TABLE FROM TO BATCH}, {@code bench-select TABLE}:
 *       {@link PhoenixBench}'s timed writes and reads, as one row {@code
 *       MILLIS ROWS CHECKSUM};
 *   <li>a failure: {@code error MESSAGE} on one line.
 * </ul>
 */
public final class PhoenixSql {
  private PhoenixSql() {}

  public static void main(String[] args) throws Exception {
    long began = System.currentTimeMillis();
    PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "UTF-8");
    try (Connection c = DriverManager.getConnection("jdbc:phoenix:127.0.0.1:" + args[0])) {
      c.setAutoCommit(false);
      out.println("rowkey-phoenix ready ms=" + (System.currentTimeMillis() - began));
      out.flush();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line; (line = in.readLine()) != null; ) {
        try (Statement s = c.createStatement()) {
          if (line.startsWith("raw ")) {
            out.println("end " + raw(c, line.substring(4).trim(), out));
          } else if (line.startsWith("bench-upsert ")) {
            out.println("row " + PhoenixBench.upsert(c, line.trim().split(" ")));
            out.println("end 1");
          } else if (line.startsWith("bench-select ")) {
            out.println("row " + PhoenixBench.select(c, line.trim().split(" ")));
            out.println("end 1");
          } else if (s.execute(line)) {
            int rows = 0;
            try (ResultSet r = s.getResultSet()) {
              ResultSetMetaData meta = r.getMetaData();
              while (r.next()) {
                StringBuilder b = new StringBuilder("row");
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                  b.append(' ').append(value(r, meta, i));
                }
                out.println(b);
                rows++;
              }
            }
            out.println("end " + rows);
          } else {
            int count = s.getUpdateCount();
            c.commit();
            out.println("end " + count);
          }
        } catch (SQLException | RuntimeException e) {
          try {
            c.rollback();
          } catch (SQLException ignored) {
            // the error below is the one to report
          }
          out.println("error " + String.valueOf(e.getMessage()).replace('\n', ' '));
        }
        out.flush();
      }
    }
    // HBase's and Phoenix's client threads are not all daemons: without
    // this the JVM outlives its stdin, and the test binary that started it.
    System.exit(0);
  }

  /** Prints every cell of HBase table {@code name}; how many. */
  private static int raw(Connection c, String name, PrintStream out) throws Exception {
    org.apache.phoenix.jdbc.PhoenixConnection p =
        c.unwrap(org.apache.phoenix.jdbc.PhoenixConnection.class);
    int cells = 0;
    org.apache.hadoop.hbase.client.Scan scan = new org.apache.hadoop.hbase.client.Scan();
    scan.setRaw(true);
    scan.readAllVersions();
    try (org.apache.hadoop.hbase.client.Table t =
            p.getQueryServices().getTable(name.getBytes(StandardCharsets.UTF_8));
        org.apache.hadoop.hbase.client.ResultScanner rs = t.getScanner(scan)) {
      for (org.apache.hadoop.hbase.client.Result r : rs) {
        for (org.apache.hadoop.hbase.Cell cell : r.rawCells()) {
          out.println(
              "cell " + hex(org.apache.hadoop.hbase.CellUtil.cloneRow(cell)) + " "
                  + hex(org.apache.hadoop.hbase.CellUtil.cloneFamily(cell)) + " "
                  + hex(org.apache.hadoop.hbase.CellUtil.cloneQualifier(cell)) + " "
                  + cell.getTimestamp() + " " + cell.getType() + " "
                  + hex(org.apache.hadoop.hbase.CellUtil.cloneValue(cell)));
          cells++;
        }
      }
    }
    return cells;
  }

  /**
   * Column {@code i} of the current row: {@code getString}, but a {@code
   * TIMESTAMP} as {@code ts:MILLIS:SUBMILLINANOS} (its instant in
   * milliseconds and the nanoseconds within the millisecond, which
   * {@code getString}'s format drops).
   */
  private static String value(ResultSet r, ResultSetMetaData meta, int i) throws SQLException {
    if (meta.getColumnType(i) == java.sql.Types.TIMESTAMP) {
      java.sql.Timestamp t = r.getTimestamp(i);
      return t == null ? "\\N" : "ts:" + t.getTime() + ":" + (t.getNanos() % 1_000_000);
    }
    return escape(r.getString(i));
  }

  private static String escape(String v) {
    if (v == null) {
      return "\\N";
    }
    StringBuilder b = new StringBuilder();
    for (byte x : v.getBytes(StandardCharsets.UTF_8)) {
      int u = x & 0xff;
      if (u > 0x20 && u < 0x7f && u != '\\') {
        b.append((char) u);
      } else {
        b.append(String.format("\\x%02x", u));
      }
    }
    return b.toString();
  }
}
