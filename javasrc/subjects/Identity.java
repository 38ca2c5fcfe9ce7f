package subjects;

/** An object's identity hash code picks the path: the JVM chooses it, a test cannot. */
public class Identity {
    public static int parity(Identity x) {
        if (x == null) {
            return -1;
        }
        if ((x.hashCode() & 1) == 0) {
            return 0;
        }
        return 1;
    }

    /** The entry of a table of four that the hash of x picks. */
    public static Object lookup(Identity x, Object[] table) {
        return table[x.hashCode() & 3];
    }

    /** A hash mixed from x's identity hash: the JVM picks the value, not the path. */
    public static int mixed(Identity x) {
        if (x == null) {
            return 0;
        }
        return 31 + x.hashCode();
    }
}
