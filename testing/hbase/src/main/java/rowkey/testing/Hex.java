package rowkey.testing;

/**
 * Bytes as lowercase hex, {@code -} for none: the line protocol of the
 * JVM helpers rowkey's tests run (TsdbCodec, and testing/phoenix's
 * PhoenixCodec and PhoenixSql, which run with these classes).
 */
public final class Hex {
  private Hex() {}

  /** {@code b} in lowercase hex; {@code -} when empty. */
  public static String hex(byte[] b) {
    StringBuilder s = new StringBuilder(b.length * 2);
    for (byte x : b) {
      s.append(String.format("%02x", x & 0xff));
    }
    return s.length() == 0 ? "-" : s.toString();
  }

  /** The bytes of {@link #hex}'s text. */
  public static byte[] unhex(String s) {
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
