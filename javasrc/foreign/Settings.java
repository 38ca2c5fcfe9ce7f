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

    /** Whether a system property is set: state the JVM sets up at startup. */
    public static boolean verbose() {
        return System.getProperty("v") != null;
    }

    /** The length of any array, by reflection (a native method of the JDK). */
    public static int size(Object array) {
        return java.lang.reflect.Array.getLength(array);
    }

    /** Prints when x is positive: System.out is set up by the JVM, not by System's initializer (which writes null). */
    public static int say(int x) {
        if (x > 0) {
            System.out.println("positive");
        }
        return x;
    }
}
