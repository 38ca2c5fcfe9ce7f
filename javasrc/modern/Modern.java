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

    /** A lambda: the traces that reach its call site are cut with a named reason. */
    Runnable counter() {
        return () -> count++;
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
