package ops;

/** Runs the bounds of a run are for: many paths with growing state, and code no path reaches. */
public class Limits {
    /** A loop with a branch per element: an array of n elements has 2^n paths. */
    public static int signs(int[] a) {
        int[] seen = new int[128];
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            if (a[i] > 0) {
                s = s * 3 + 1;
            } else {
                s = s * 3 + 2;
            }
            seen[i] = s;
        }
        return s + seen[0];
    }

    /** Calls helpers only on a branch no input takes. */
    public static int guarded(int x) {
        if (x != x) {
            return helper(x);
        }
        return x;
    }

    static int helper(int x) {
        return twice(x) + 1;
    }

    static int twice(int x) {
        return x * 2;
    }
}
