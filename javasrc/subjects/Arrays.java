package subjects;

/** Arrays with symbolic indices and lengths. */
public class Arrays {
    /** Out-of-bounds for i outside [0, 3). */
    public static int pick(int i) {
        int[] a = new int[3];
        a[0] = 10;
        a[1] = 20;
        a[2] = 30;
        return a[i];
    }

    /** An input array with a symbolic index. */
    public static int at(int[] a, int i) {
        return a[i];
    }

    /** NegativeArraySizeException for n < 0. */
    public static int make(int n) {
        int[] a = new int[n];
        return a.length;
    }
}
