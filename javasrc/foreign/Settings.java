package foreign;

/** A class initializer that reaches code the machine does not run after computing part of its statics. */
public class Settings {
    /** Computed before the initializer reaches the unmodelled call: known. */
    static final int LIMIT = square(10);
    /** Computed by a String method without a model: unknown to the machine. */
    static final String NAME = String.valueOf(LIMIT).trim();

    private static int square(int x) {
        return x * x;
    }

    /** Clamps to LIMIT: reads only what the initializer computed. */
    public static int clamp(int x) {
        if (x > LIMIT) {
            return LIMIT;
        }
        return x;
    }

    /** The length of NAME: reads what the initializer did not compute. */
    public static int nameLength() {
        return NAME.length();
    }
}
