package ops;

/** Arrays of every element kind: creation, length, loads and stores. */
public class ArrayOps {
    static int ints(int n, int i) {
        int[] a = new int[n];
        a[i] = 5;
        return a[i] + a.length;
    }

    static long longs(long[] a, int i) {
        a[i] = a[i] + 1L;
        return a[i];
    }

    static int small(byte[] b, char[] c, short[] s, boolean[] z) {
        b[0] = 1;
        c[0] = 'x';
        s[0] = 2;
        z[0] = true;
        return b[0] + c[0] + s[0] + (z[0] ? 1 : 0);
    }

    static Object refs(Object[] a, int i) {
        Object[] copy = new Object[a.length];
        copy[i] = a[i];
        return copy[i];
    }

    static int sum(int[] a) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
        }
        return s;
    }
}
