package ops;

/** float and double instructions: IEEE arithmetic, comparisons that NaN fails, Java's conversions. */
public class Floats {
    float scale;
    double total;

    static double mix(float f, double d, int i, long l) {
        float g = f * 2.5f + i;
        double e = d / 3.0 - l;
        if (g < e) return g;
        return (double) (float) e + (long) d + (int) f;
    }

    static float[] arrays(int n) {
        float[] a = new float[n];
        double[] b = new double[n];
        a[0] = 1.0f;
        b[0] = -a[0];
        return a;
    }

    /** Positive, negative, zero, NaN: four paths (NaN fails every comparison). */
    static int sign(double x) {
        if (x > 0) return 1;
        if (x < 0) return -1;
        if (x == 0) return 0;
        return 2;
    }

    /** (int) truncates toward zero and saturates: a float this large becomes Integer.MAX_VALUE. */
    static int round(float f) {
        int i = (int) f;
        if (i == Integer.MAX_VALUE) return -1;
        if (f - i >= 0.5f) return i + 1;
        return i;
    }

    /** A table's resize threshold from its load factor, as java.util.HashMap computes it. */
    int threshold(int capacity) {
        float ft = (float) capacity * scale;
        if (ft < (float) Integer.MAX_VALUE) return (int) ft;
        return Integer.MAX_VALUE;
    }

    /** Adds to a running total that stops at 100. */
    void add(double x) {
        total += x;
        if (total > 100.0) total = 100.0;
    }

    /** Java's % on doubles is C's fmod: not modelled, the trace is cut with that reason. */
    static double remainder(double a, double b) {
        return a % b;
    }

    /** The JDK's bit views and Math on floats: a NaN key hashes as Float.NaN does. */
    static int bits(float f, double d) {
        if (Float.floatToIntBits(f) == 0x7fc00000) return 0;
        if (Math.min(f, -f) == -0.0f && 1 / Math.min(f, -f) < 0) return 1;
        if (Math.abs(d) > Math.max(d, 2.0)) return 2;
        return Double.hashCode(d) == 0 ? 3 : 4;
    }
}
