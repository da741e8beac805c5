// The Java side of tests/java_crosscheck.rs's cell check: HBase's
// org.apache.hadoop.hbase.util.Bytes conversions, written from their
// documented byte layouts (no HBase jar here), applied to what
// #[derive(Record)] writes, and Java's own writing of the same values.
// Reads lines `TYPE <value> <hex of the Rust cell>` on stdin; prints
// `<the Rust cell decoded, as text> <hex of Java's cell for the value>`.
//
//   L I S   long, int, short (decimal)
//   D F     double, float (the raw bits in hex: NaN payloads kept)
//   B       boolean (true / false)
//   T       String (hex of its UTF-8)
//   M       BigDecimal (plain text)
//   U       UUID (text; two longs, most significant first)
//   N       Instant (seconds,nanos; a long then an int)
//   Y       LocalDate (epoch day; an int)
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.UUID;

public class CellBytes {
    // Bytes.toLong(byte[], int, int): big-endian, exactly 8 bytes.
    static long toLong(byte[] b, int off) {
        if (b.length - off < 8) throw new IllegalArgumentException("wrong length " + b.length);
        long l = 0;
        for (int i = off; i < off + 8; i++) { l <<= 8; l ^= b[i] & 0xFF; }
        return l;
    }
    static int toInt(byte[] b, int off) {
        if (b.length - off < 4) throw new IllegalArgumentException("wrong length " + b.length);
        int n = 0;
        for (int i = off; i < off + 4; i++) { n <<= 8; n ^= b[i] & 0xFF; }
        return n;
    }
    static short toShort(byte[] b) {
        if (b.length != 2) throw new IllegalArgumentException("wrong length " + b.length);
        short n = 0;
        n = (short) ((n ^ b[0]) & 0xFF);
        n = (short) (n << 8);
        n ^= (short) (b[1] & 0xFF);
        return n;
    }
    // Bytes.toBytes(long), (int), (short): big-endian.
    static byte[] toBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 7; i > 0; i--) { b[i] = (byte) v; v >>>= 8; }
        b[0] = (byte) v;
        return b;
    }
    static byte[] toBytes(int v) {
        byte[] b = new byte[4];
        for (int i = 3; i > 0; i--) { b[i] = (byte) v; v >>>= 8; }
        b[0] = (byte) v;
        return b;
    }
    static byte[] toBytes(short v) {
        return new byte[] { (byte) (v >>> 8), (byte) v };
    }
    // Bytes.toBytes(double): toBytes(Double.doubleToRawLongBits(d)).
    static byte[] toBytes(double d) { return toBytes(Double.doubleToRawLongBits(d)); }
    static byte[] toBytes(float f) { return toBytes(Float.floatToRawIntBits(f)); }
    static double toDouble(byte[] b) {
        if (b.length != 8) throw new IllegalArgumentException("wrong length");
        return Double.longBitsToDouble(toLong(b, 0));
    }
    static float toFloat(byte[] b) {
        if (b.length != 4) throw new IllegalArgumentException("wrong length");
        return Float.intBitsToFloat(toInt(b, 0));
    }
    // Bytes.toBytes(boolean): {-1} or {0}; Bytes.toBoolean: one byte, != 0.
    static byte[] toBytes(boolean v) { return new byte[] { v ? (byte) -1 : (byte) 0 }; }
    static boolean toBoolean(byte[] b) {
        if (b.length != 1) throw new IllegalArgumentException("Array has wrong size: " + b.length);
        return b[0] != (byte) 0;
    }
    // Bytes.toBytes(String) / Bytes.toString(byte[]): UTF-8.
    static byte[] toBytes(String s) { return s.getBytes(StandardCharsets.UTF_8); }
    static String toStr(byte[] b) { return new String(b, StandardCharsets.UTF_8); }
    // Bytes.toBytes(BigDecimal): the scale (int), then unscaledValue().toByteArray().
    static byte[] toBytes(BigDecimal v) {
        byte[] digits = v.unscaledValue().toByteArray();
        byte[] out = Arrays.copyOf(toBytes(v.scale()), 4 + digits.length);
        System.arraycopy(digits, 0, out, 4, digits.length);
        return out;
    }
    static BigDecimal toBigDecimal(byte[] b) {
        if (b.length < 5) throw new IllegalArgumentException("wrong length");
        int scale = toInt(b, 0);
        return new BigDecimal(new BigInteger(Arrays.copyOfRange(b, 4, b.length)), scale);
    }

    static byte[] unhex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        return b;
    }
    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x & 0xFF));
        return sb.toString();
    }
    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.split("\t", -1);
            String v = f[1];
            byte[] rust = unhex(f[2]);
            String decoded;
            byte[] java;
            switch (f[0]) {
                case "L": decoded = Long.toString(toLong(rust, 0)); if (rust.length != 8) throw new IllegalArgumentException(); java = toBytes(Long.parseLong(v)); break;
                case "I": decoded = Integer.toString(toInt(rust, 0)); if (rust.length != 4) throw new IllegalArgumentException(); java = toBytes(Integer.parseInt(v)); break;
                case "S": decoded = Short.toString(toShort(rust)); java = toBytes(Short.parseShort(v)); break;
                case "D": decoded = String.format("%016x", Double.doubleToRawLongBits(toDouble(rust)));
                    java = toBytes(Double.longBitsToDouble(Long.parseUnsignedLong(v, 16))); break;
                case "F": decoded = String.format("%08x", Float.floatToRawIntBits(toFloat(rust)));
                    java = toBytes(Float.intBitsToFloat(Integer.parseUnsignedInt(v, 16))); break;
                case "B": decoded = Boolean.toString(toBoolean(rust)); java = toBytes(Boolean.parseBoolean(v)); break;
                case "T": decoded = hex(toBytes(toStr(rust))); java = toBytes(toStr(unhex(v))); break;
                case "M": decoded = toBigDecimal(rust).toPlainString(); java = toBytes(new BigDecimal(v)); break;
                case "U": decoded = new UUID(toLong(rust, 0), toLong(rust, 8)).toString();
                    UUID u = UUID.fromString(v);
                    java = concat(toBytes(u.getMostSignificantBits()), toBytes(u.getLeastSignificantBits())); break;
                case "N": {
                    if (rust.length != 12) throw new IllegalArgumentException();
                    Instant t = Instant.ofEpochSecond(toLong(rust, 0), toInt(rust, 8));
                    decoded = t.getEpochSecond() + "," + t.getNano();
                    String[] sn = v.split(",");
                    Instant w = Instant.ofEpochSecond(Long.parseLong(sn[0]), Integer.parseInt(sn[1]));
                    java = concat(toBytes(w.getEpochSecond()), toBytes(w.getNano()));
                    break;
                }
                case "Y": decoded = Long.toString(LocalDate.ofEpochDay(toInt(rust, 0)).toEpochDay());
                    java = toBytes((int) LocalDate.ofEpochDay(Long.parseLong(v)).toEpochDay()); break;
                default: throw new IllegalArgumentException("unknown case " + f[0]);
            }
            out.println(decoded + "\t" + hex(java));
        }
        out.flush();
    }
}
