package uberlazy.models;

/**
 * What uberlazy runs for the methods of java.util.Arrays that data structures call (the JDK's
 * go through reflection and natives). A copy of an Object[] is an Object[] (the JDK keeps
 * the original's runtime type).
 */
public final class JdkArrays {
    private JdkArrays() {
    }

    public static Object[] copyOf(Object[] original, int newLength) {
        Object[] copy = new Object[newLength];
        int n = Math.min(original.length, newLength);
        for (int i = 0; i < n; i++) {
            copy[i] = original[i];
        }
        return copy;
    }

    public static int[] copyOf(int[] original, int newLength) {
        int[] copy = new int[newLength];
        int n = Math.min(original.length, newLength);
        for (int i = 0; i < n; i++) {
            copy[i] = original[i];
        }
        return copy;
    }

    public static char[] copyOf(char[] original, int newLength) {
        char[] copy = new char[newLength];
        int n = Math.min(original.length, newLength);
        for (int i = 0; i < n; i++) {
            copy[i] = original[i];
        }
        return copy;
    }

    public static long[] copyOf(long[] original, int newLength) {
        long[] copy = new long[newLength];
        int n = Math.min(original.length, newLength);
        for (int i = 0; i < n; i++) {
            copy[i] = original[i];
        }
        return copy;
    }

    public static Object[] copyOfRange(Object[] original, int from, int to) {
        int newLength = to - from;
        if (newLength < 0) {
            throw new IllegalArgumentException();
        }
        Object[] copy = new Object[newLength];
        int n = Math.min(original.length - from, newLength);
        for (int i = 0; i < n; i++) {
            copy[i] = original[from + i];
        }
        return copy;
    }

    public static void fill(Object[] a, Object val) {
        for (int i = 0; i < a.length; i++) {
            a[i] = val;
        }
    }

    public static void fill(Object[] a, int fromIndex, int toIndex, Object val) {
        rangeCheck(a.length, fromIndex, toIndex);
        for (int i = fromIndex; i < toIndex; i++) {
            a[i] = val;
        }
    }

    public static void fill(int[] a, int val) {
        for (int i = 0; i < a.length; i++) {
            a[i] = val;
        }
    }

    public static void fill(char[] a, char val) {
        for (int i = 0; i < a.length; i++) {
            a[i] = val;
        }
    }

    public static void fill(long[] a, long val) {
        for (int i = 0; i < a.length; i++) {
            a[i] = val;
        }
    }

    public static void fill(boolean[] a, boolean val) {
        for (int i = 0; i < a.length; i++) {
            a[i] = val;
        }
    }

    private static void rangeCheck(int length, int fromIndex, int toIndex) {
        if (fromIndex > toIndex) {
            throw new IllegalArgumentException();
        }
        if (fromIndex < 0 || toIndex > length) {
            throw new ArrayIndexOutOfBoundsException();
        }
    }
}
