package rowkey.testing;

import static rowkey.testing.Hex.hex;
import static rowkey.testing.Hex.unhex;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import net.opentsdb.core.Const;
import net.opentsdb.core.Internal;
import org.hbase.async.Bytes;

/**
 * OpenTSDB 2.4.1's own encoding of data points, one stdin line at a time,
 * for rowkey's byte-for-byte cross-check (tests/it/opentsdb.rs).
 *
 * <p>{@code point TS KIND VALUE} (KIND long, with VALUE in decimal; float or
 * double, with VALUE the bits in hex) writes the point as OpenTSDB does:
 * {@code BASE QUALIFIER VALUE} in hex, then what OpenTSDB reads back from
 * them: {@code OFFSET_MS FLAGS TIMESTAMP_MS} and the value (a long in
 * decimal, or a double's bits in hex).
 *
 * <p>{@code compact QUALIFIER VALUE} (hex) splits a compacted cell as
 * OpenTSDB reads one ({@code Internal.extractDataPoints}): each point's
 * qualifier and value, in hex, {@code Q:V} apart.
 *
 * <p>{@code row METRIC TS TAGS} (hex, decimal, hex) writes the row key of
 * a point at TS with the base time set by {@code Internal.setBaseTime},
 * then the base time {@code Internal.baseTime} reads back from it.
 *
 * <p>{@code salted METRIC TS TAGS} writes the same row with salting on (one
 * byte, 20 buckets: {@code tsd.storage.salt.width = 1}, {@code
 * tsd.storage.salt.buckets = 20}), its bucket set by {@code
 * RowKey.prefixKeyWithSalt}.
 */
public final class TsdbCodec {
  private TsdbCodec() {}

  public static void main(String[] args) throws Exception {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "UTF-8");
    for (String line; (line = in.readLine()) != null; ) {
      String[] p = line.split(" ");
      if (p[0].equals("compact")) {
        java.util.ArrayList<Internal.Cell> cells =
            Internal.extractDataPoints(
                new org.hbase.async.KeyValue(new byte[] {0}, new byte[] {'t'}, unhex(p[1]), unhex(p[2])));
        StringBuilder joined = new StringBuilder();
        for (Internal.Cell c : cells) {
          if (joined.length() > 0) {
            joined.append(' ');
          }
          joined.append(hex(c.qualifier())).append(':').append(hex(c.value()));
        }
        out.println(joined.length() == 0 ? "-" : joined.toString());
      } else if (p[0].equals("row") || p[0].equals("salted")) {
        boolean salted = p[0].equals("salted");
        if (salted && Const.SALT_WIDTH() != 1) {
          // What tsd.storage.salt.* set in a TSD; package-private here.
          java.lang.reflect.Method width = Const.class.getDeclaredMethod("setSaltWidth", int.class);
          java.lang.reflect.Method buckets =
              Const.class.getDeclaredMethod("setSaltBuckets", int.class);
          width.setAccessible(true);
          buckets.setAccessible(true);
          width.invoke(null, 1);
          buckets.invoke(null, 20);
        }
        int salt = salted ? 1 : 0;
        byte[] metric = unhex(p[1]);
        long ts = Long.parseLong(p[2]);
        byte[] tags = p.length > 3 ? unhex(p[3]) : new byte[0];
        byte[] row = new byte[salt + metric.length + Const.TIMESTAMP_BYTES + tags.length];
        System.arraycopy(metric, 0, row, salt, metric.length);
        int at = salt + metric.length;
        // Both read Const.SALT_WIDTH(): one run takes one form.
        Internal.setBaseTime(row, (int) Internal.baseTime(ts));
        System.arraycopy(tags, 0, row, at + Const.TIMESTAMP_BYTES, tags.length);
        if (salted) {
          net.opentsdb.core.RowKey.prefixKeyWithSalt(row);
        }
        out.println(hex(row) + " " + Internal.baseTime(row));
      } else {
        long ts = Long.parseLong(p[1]);
        byte[] value;
        short flags;
        switch (p[2]) {
          case "long":
            value = Internal.vleEncodeLong(Long.parseLong(p[3]));
            flags = (short) (value.length - 1);
            break;
          case "float":
            value = Bytes.fromInt((int) Long.parseLong(p[3], 16));
            flags = (short) (Const.FLAG_FLOAT | 0x3);
            break;
          default:
            value = Bytes.fromLong(Long.parseUnsignedLong(p[3], 16));
            flags = (short) (Const.FLAG_FLOAT | 0x7);
        }
        long base = Internal.baseTime(ts);
        byte[] q = Internal.buildQualifier(ts, flags);
        short readFlags = Internal.getFlagsFromQualifier(q);
        String read;
        if (Internal.isFloat(q)) {
          double d = Internal.extractFloatingPointValue(value, 0, (byte) readFlags);
          read = Long.toHexString(Double.doubleToRawLongBits(d));
        } else {
          read = Long.toString(Internal.extractIntegerValue(value, 0, (byte) readFlags));
        }
        out.println(
            base + " " + hex(q) + " " + hex(value) + " " + Internal.getOffsetFromQualifier(q)
                + " " + readFlags + " " + Internal.getTimestampFromQualifier(q, base) + " "
                + read);
      }
    }
    out.flush();
  }

}
