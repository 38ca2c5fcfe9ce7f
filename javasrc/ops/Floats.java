package ops;

/** float and double instructions: they lower; the machine rejects them with a clear error. */
public class Floats {
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
}
