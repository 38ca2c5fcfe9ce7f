package uberlazy.models;

/**
 * What uberlazy runs for the methods of java.lang.System that data structures call (the JDK's
 * are native). The machine runs this code in place of the JDK's: its branches are the
 * JVM's checks, its loops copy element by element.
 */
public final class JdkSystem {
    private JdkSystem() {
    }

    public static void arraycopy(Object src, int srcPos, Object dest, int destPos, int length) {
        if (src == null || dest == null) {
            throw new NullPointerException();
        }
        if (src instanceof Object[] && dest instanceof Object[]) {
            Object[] s = (Object[]) src;
            Object[] d = (Object[]) dest;
            check(srcPos, destPos, length, s.length, d.length);
            if (s == d && srcPos < destPos) {
                for (int i = length - 1; i >= 0; i--) {
                    d[destPos + i] = s[srcPos + i];
                }
            } else {
                for (int i = 0; i < length; i++) {
                    d[destPos + i] = s[srcPos + i];
                }
            }
        } else if (src instanceof int[] && dest instanceof int[]) {
            int[] s = (int[]) src;
            int[] d = (int[]) dest;
            check(srcPos, destPos, length, s.length, d.length);
            if (s == d && srcPos < destPos) {
                for (int i = length - 1; i >= 0; i--) {
                    d[destPos + i] = s[srcPos + i];
                }
            } else {
                for (int i = 0; i < length; i++) {
                    d[destPos + i] = s[srcPos + i];
                }
            }
        } else if (src instanceof char[] && dest instanceof char[]) {
            char[] s = (char[]) src;
            char[] d = (char[]) dest;
            check(srcPos, destPos, length, s.length, d.length);
            if (s == d && srcPos < destPos) {
                for (int i = length - 1; i >= 0; i--) {
                    d[destPos + i] = s[srcPos + i];
                }
            } else {
                for (int i = 0; i < length; i++) {
                    d[destPos + i] = s[srcPos + i];
                }
            }
        } else if (src instanceof long[] && dest instanceof long[]) {
            long[] s = (long[]) src;
            long[] d = (long[]) dest;
            check(srcPos, destPos, length, s.length, d.length);
            if (s == d && srcPos < destPos) {
                for (int i = length - 1; i >= 0; i--) {
                    d[destPos + i] = s[srcPos + i];
                }
            } else {
                for (int i = 0; i < length; i++) {
                    d[destPos + i] = s[srcPos + i];
                }
            }
        } else if (src instanceof byte[] && dest instanceof byte[]) {
            byte[] s = (byte[]) src;
            byte[] d = (byte[]) dest;
            check(srcPos, destPos, length, s.length, d.length);
            if (s == d && srcPos < destPos) {
                for (int i = length - 1; i >= 0; i--) {
                    d[destPos + i] = s[srcPos + i];
                }
            } else {
                for (int i = 0; i < length; i++) {
                    d[destPos + i] = s[srcPos + i];
                }
            }
        } else {
            throw new ArrayStoreException();
        }
    }

    private static void check(int srcPos, int destPos, int length, int srcLength, int destLength) {
        if (srcPos < 0 || destPos < 0 || length < 0 || srcPos > srcLength - length || destPos > destLength - length) {
            throw new ArrayIndexOutOfBoundsException();
        }
    }
}
