package rowkey.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;

/**
 * The JDBC side of rowkey's Phoenix benchmark ({@code
 * rowkey-hbase/examples/phoenix_speed.rs}), over a table {@code (HOST
 * VARCHAR, METRIC INTEGER, AT BIGINT DESC; V DOUBLE, NOTE VARCHAR(20), SEEN
 * DATE)}. Row {@code i} is the same on both sides:
 *
 * <pre>
 *   HOST   "host-" + i % 1000        METRIC (i / 1000) % 100
 *   AT     1_700_000_000_000 + i     V      NULL if i % 3 == 0, else i * 0.25
 *   NOTE   NULL if i % 5 == 0, else "note-" + i % 97
 *   SEEN   1_600_000_000_000 + i (a DATE)
 * </pre>
 *
 * and the checksum of a set of rows is the wrapping sum over them of
 * {@link #checksum}. Each command times itself, after the connection is
 * open: JVM start and connection are not counted.
 */
final class PhoenixBench {
  private PhoenixBench() {}

  /** A row's share of the checksum. */
  static long checksum(String host, int metric, long at, Double v, String note, Long seen) {
    return host.length()
        + metric
        + at % 1_000_003
        + (v == null ? 7 : (long) (v * 4))
        + (note == null ? 11 : note.length())
        + (seen == null ? 13 : seen % 1_009);
  }

  /**
   * {@code bench-upsert TABLE FROM TO BATCH}: UPSERTs rows {@code FROM..TO}
   * with one prepared statement, committing every {@code BATCH} rows (how
   * Phoenix batches writes: the connection keeps the rows until the
   * commit). Returns {@code MILLIS ROWS CHECKSUM}.
   */
  static String upsert(Connection c, String[] w) throws SQLException {
    String table = w[1];
    long from = Long.parseLong(w[2]);
    long to = Long.parseLong(w[3]);
    int batch = Integer.parseInt(w[4]);
    long sum = 0;
    long began = System.nanoTime();
    try (PreparedStatement p =
        c.prepareStatement("UPSERT INTO " + table + " VALUES (?, ?, ?, ?, ?, ?)")) {
      int pending = 0;
      for (long i = from; i < to; i++) {
        String host = "host-" + (i % 1000);
        int metric = (int) ((i / 1000) % 100);
        long at = 1_700_000_000_000L + i;
        Double v = i % 3 == 0 ? null : i * 0.25;
        String note = i % 5 == 0 ? null : "note-" + (i % 97);
        long seen = 1_600_000_000_000L + i;
        p.setString(1, host);
        p.setInt(2, metric);
        p.setLong(3, at);
        if (v == null) {
          p.setNull(4, Types.DOUBLE);
        } else {
          p.setDouble(4, v);
        }
        if (note == null) {
          p.setNull(5, Types.VARCHAR);
        } else {
          p.setString(5, note);
        }
        p.setDate(6, new java.sql.Date(seen));
        p.executeUpdate();
        sum += checksum(host, metric, at, v, note, seen);
        if (++pending == batch) {
          c.commit();
          pending = 0;
        }
      }
      c.commit();
    }
    long ms = (System.nanoTime() - began) / 1_000_000;
    return ms + " " + (to - from) + " " + sum;
  }

  /**
   * {@code bench-select TABLE}: {@code SELECT * FROM TABLE}, every value
   * read with its typed getter. Returns {@code MILLIS ROWS CHECKSUM}.
   */
  static String select(Connection c, String[] w) throws SQLException {
    long rows = 0;
    long sum = 0;
    long began = System.nanoTime();
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT * FROM " + w[1])) {
      while (r.next()) {
        String host = r.getString(1);
        int metric = r.getInt(2);
        long at = r.getLong(3);
        double d = r.getDouble(4);
        Double v = r.wasNull() ? null : d;
        String note = r.getString(5);
        java.sql.Date seen = r.getDate(6);
        sum += checksum(host, metric, at, v, note, seen == null ? null : seen.getTime());
        rows++;
      }
    }
    long ms = (System.nanoTime() - began) / 1_000_000;
    return ms + " " + rows + " " + sum;
  }
}
