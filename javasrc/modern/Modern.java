package modern;

/** What javac 9+ emits: string concatenation and lambdas through invokedynamic; monitors for synchronized. */
public class Modern {
    int count;
    Modern next;

    /** A block synchronized on a parameter: NullPointerException when it is null. */
    static int lockedCount(Modern m) {
        synchronized (m) {
            return m.count;
        }
    }

    /** A synchronized method (a flag, no monitor instruction) with a block synchronized on this. */
    synchronized int bump() {
        synchronized (this) {
            count++;
            return count;
        }
    }

    /** String concatenation gives a new non-null String whatever the operands. */
    String describe(int n) {
        String s = "count=" + count + ", n=" + n + ", next=" + next;
        return s == null ? "none" : s;
    }

    /** A lambda: the new object of its call site's class (its body runs when it is called). */
    Runnable counter() {
        return () -> count++;
    }

    /** A lambda capturing this, called: count + 1 when the receiver's count is below n. */
    boolean bumpedBelow(int n) {
        java.util.function.IntPredicate below = k -> count + k < n;
        return below.test(1);
    }

    /** A record: its hashCode is an invokedynamic of ObjectMethods, not a lambda. */
    record Point(int x, int y) {}

    /** The traces that reach the record's hashCode are cut, naming its bootstrap method. */
    static int pointHash(int x) {
        return new Point(x, 0).hashCode();
    }

    /** Objects.requireNonNull: NullPointerException when m is null, else m. */
    static int checked(Modern m) {
        return java.util.Objects.requireNonNull(m, "m").count;
    }

    /** An assert is off, as the JVM runs by default: any n returns. */
    static int positive(int n) {
        assert n > 0 : "n must be positive";
        return n;
    }
}
