package rowkey.testing;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import org.apache.phoenix.schema.SortOrder;
import org.apache.phoenix.schema.types.PDataType;

/**
 * Apache Phoenix 5.2.1's own encoders ({@code PDataType.toBytes} with a
 * {@code SortOrder}, then {@code pad} to a column's length as an upsert
 * does), one value per stdin line, for rowkey's byte-for-byte cross-check
 * of its Phoenix codecs (rowkey-core's tests in {@code tests/it/phoenix}).
 *
 * <p>A line is {@code TYPE ORDER LENGTH VALUE}: TYPE is Phoenix's name
 * ({@code INTEGER}, {@code UNSIGNED_LONG}, {@code VARCHAR}...); ORDER is
 * {@code asc} or {@code desc}; LENGTH is the column's length or precision
 * ({@code -} for none); VALUE is written per type:
 *
 * <ul>
 *   <li>integers in decimal; FLOAT and DOUBLE (and their UNSIGNED forms)
 *       as the value's bits in hex;
 *   <li>DECIMAL as Java's {@code BigDecimal} text;
 *   <li>BOOLEAN {@code true}/{@code false};
 *   <li>DATE, TIME and their UNSIGNED forms as milliseconds since the
 *       epoch; TIMESTAMP as {@code MILLIS.NANOS} (NANOS the nanoseconds
 *       below the millisecond);
 *   <li>VARCHAR, CHAR, BINARY and VARBINARY as their bytes in hex
 *       ({@code -} for none).
 * </ul>
 *
 * <p>The answer is the bytes in hex, then what {@code toObject} reads back
 * from them in the same form as VALUE; or {@code error MESSAGE}.
 */
public final class PhoenixCodec {
  private PhoenixCodec() {}

  public static void main(String[] args) throws Exception {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "UTF-8");
    for (String line; (line = in.readLine()) != null; ) {
      try {
        out.println(answer(line.split(" ", 4)));
      } catch (Exception e) {
        out.println("error " + String.valueOf(e).replace('\n', ' '));
      }
    }
    out.flush();
  }

  private static String answer(String[] p) throws Exception {
    PDataType type = PDataType.fromSqlTypeName(p[0]);
    SortOrder order = p[1].equals("desc") ? SortOrder.DESC : SortOrder.ASC;
    Integer length = p[2].equals("-") ? null : Integer.valueOf(p[2]);
    Object value = parse(p[0], p[3]);
    byte[] bytes = type.toBytes(value, order);
    if (length != null && type.isFixedWidth()) {
      bytes = type.pad(bytes, length, order);
    }
    Object back = type.toObject(bytes, 0, bytes.length, type, order, length, null);
    return hex(bytes) + " " + show(p[0], back);
  }

  private static Object parse(String type, String v) {
    switch (type) {
      case "TINYINT":
      case "UNSIGNED_TINYINT":
        return Byte.valueOf(v);
      case "SMALLINT":
      case "UNSIGNED_SMALLINT":
        return Short.valueOf(v);
      case "INTEGER":
      case "UNSIGNED_INT":
        return Integer.valueOf(v);
      case "BIGINT":
      case "UNSIGNED_LONG":
        return Long.valueOf(v);
      case "FLOAT":
      case "UNSIGNED_FLOAT":
        return Float.intBitsToFloat((int) Long.parseLong(v, 16));
      case "DOUBLE":
      case "UNSIGNED_DOUBLE":
        return Double.longBitsToDouble(Long.parseUnsignedLong(v, 16));
      case "DECIMAL":
        return new BigDecimal(v);
      case "BOOLEAN":
        return Boolean.valueOf(v);
      case "DATE":
      case "UNSIGNED_DATE":
        return new java.sql.Date(Long.parseLong(v));
      case "TIME":
      case "UNSIGNED_TIME":
        return new java.sql.Time(Long.parseLong(v));
      case "TIMESTAMP":
      case "UNSIGNED_TIMESTAMP":
        {
          String[] mn = v.split("\\.");
          Timestamp t = new Timestamp(Long.parseLong(mn[0]));
          t.setNanos(t.getNanos() + Integer.parseInt(mn[1]));
          return t;
        }
      case "VARCHAR":
      case "CHAR":
        return new String(unhex(v), StandardCharsets.UTF_8);
      default:
        return unhex(v);
    }
  }

  private static String show(String type, Object v) {
    if (v == null) {
      return "null";
    }
    switch (type) {
      case "FLOAT":
      case "UNSIGNED_FLOAT":
        return Integer.toHexString(Float.floatToRawIntBits((Float) v));
      case "DOUBLE":
      case "UNSIGNED_DOUBLE":
        return Long.toHexString(Double.doubleToRawLongBits((Double) v));
      case "DECIMAL":
        return ((BigDecimal) v).toString();
      case "DATE":
      case "UNSIGNED_DATE":
      case "TIME":
      case "UNSIGNED_TIME":
        return Long.toString(((java.util.Date) v).getTime());
      case "TIMESTAMP":
      case "UNSIGNED_TIMESTAMP":
        {
          Timestamp t = (Timestamp) v;
          return t.getTime() + "." + (t.getNanos() % 1_000_000);
        }
      case "VARCHAR":
      case "CHAR":
        return hex(((String) v).getBytes(StandardCharsets.UTF_8));
      case "BINARY":
      case "VARBINARY":
        return hex((byte[]) v);
      default:
        return v.toString();
    }
  }

  /**
   * Lowercase hex, {@code -} for none (testing/hbase's {@code Hex}, which
   * this project's sources cannot see: it runs with those classes but is
   * not compiled against them).
   */
  static String hex(byte[] b) {
    StringBuilder s = new StringBuilder(b.length * 2);
    for (byte x : b) {
      s.append(String.format("%02x", x & 0xff));
    }
    return s.length() == 0 ? "-" : s.toString();
  }

  private static byte[] unhex(String s) {
    if (s.equals("-")) {
      return new byte[0];
    }
    byte[] b = new byte[s.length() / 2];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
    }
    return b;
  }
}
