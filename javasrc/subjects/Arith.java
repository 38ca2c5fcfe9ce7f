package subjects;

/** Primitive arithmetic: division by zero, overflow, exceptions caught and uncaught. */
public class Arith {
    /** ArithmeticException when d == 0. */
    public static int div(int n, int d) {
        return n / d;
    }

    /** Caught exception: returns -1 when d == 0. */
    public static int safeDiv(int n, int d) {
        try {
            return n / d;
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    /** Int overflow: true exactly when x + 1 wraps around. */
    public static boolean overflows(int x) {
        return x + 1 < x;
    }

    /** User throw: uncaught IllegalArgumentException for negative input. */
    public static int checked(int x) {
        if (x < 0) throw new IllegalArgumentException("negative");
        return x * 2;
    }

    /** Long arithmetic and comparison. */
    public static int compareLong(long a, long b) {
        long d = a - b;
        if (d > 0L) return 1;
        if (d < 0L) return -1;
        return 0;
    }
}
