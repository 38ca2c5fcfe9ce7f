package subjects;

/** Static fields initialized by the class initializer. */
public class Counter {
    static int count = 5;
    static final int LIMIT = 7;

    public static boolean bump() {
        count = count + 1;
        return count > 6;
    }
}
