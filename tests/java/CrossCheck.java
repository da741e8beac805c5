// The Java side of tests/it/java_crosscheck.rs: the reference formulas the
// Rust salts must reproduce, run on the JVM itself. Reads tab-separated
// cases on stdin, prints one answer line per case.
//
//   C <tel> <time>        call-record bucket and key (the Java call-record salt)
//   P <n> <hex bytes>     Phoenix SaltingUtil salt byte, current and pre-4.x
//   J <n> <text>          String.hashCode and Math.abs(hashCode) % n
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

public class CrossCheck {
    static int phoenixHash(byte[] key) {
        int hash = 1;
        for (byte b : key) {
            hash = 31 * hash + b;
        }
        return hash;
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.split("\t", -1);
            switch (f[0]) {
                case "C": {
                    String tel = f[1], time = f[2];
                    int crc = Math.abs(tel.substring(tel.length() - 4).hashCode() ^ time.substring(0, 6).hashCode());
                    int bucket = crc % 6;
                    out.println("C\t" + bucket + "\t" + bucket + "_" + tel + "_" + time);
                    break;
                }
                case "P": {
                    int n = Integer.parseInt(f[1]);
                    String hex = f[2];
                    byte[] key = new byte[hex.length() / 2];
                    for (int i = 0; i < key.length; i++) {
                        key[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
                    }
                    int h = phoenixHash(key);
                    byte current = (byte) Math.abs(h % n);
                    byte old = (byte) (Math.abs(h) % n);
                    out.println("P\t" + (current & 0xFF) + "\t" + old);
                    break;
                }
                case "J": {
                    int n = Integer.parseInt(f[1]);
                    int h = f[2].hashCode();
                    out.println("J\t" + h + "\t" + (Math.abs(h) % n));
                    break;
                }
                case "D": {
                    // HBase OrderedBytes.encodeFloat64's body (after its
                    // header byte): the bits, sign-flipped or inverted.
                    double v = Double.longBitsToDouble(Long.parseUnsignedLong(f[1], 16));
                    long l = Double.doubleToLongBits(v);
                    l ^= ((l >> (Long.SIZE - 1)) | Long.MIN_VALUE);
                    out.println("D\t" + String.format("%016x", l));
                    break;
                }
                case "F": {
                    // OrderedBytes.encodeFloat32's body.
                    float v = Float.intBitsToFloat((int) Long.parseLong(f[1], 16));
                    int i = Float.floatToIntBits(v);
                    i ^= ((i >> (Integer.SIZE - 1)) | Integer.MIN_VALUE);
                    out.println("F\t" + String.format("%08x", i));
                    break;
                }
                default:
                    throw new IllegalArgumentException("unknown case " + f[0]);
            }
        }
        out.flush();
    }
}
