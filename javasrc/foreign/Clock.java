package foreign;

/**
 * Calls into the JDK that have no bytecode and no model (System.nanoTime,
 * Thread.currentThread): a path may carry their results but not depend on them.
 */
public class Clock {
    /** Computed by the class initializer from a call with no model. */
    private static final long START = System.nanoTime();

    private long last;
    private int ticks;

    /** Stores the time and returns it or the step: the time is never tested. */
    public long stamp(int step) {
        long now = System.nanoTime();
        last = now;
        if (step > 0) {
            ticks += step;
            return now;
        }
        return step;
    }

    /** Branches on the time: no test can choose it. */
    public boolean late(long limit) {
        return System.nanoTime() > limit;
    }

    /** Returns an object no code computed. */
    public Thread owner() {
        return Thread.currentThread();
    }

    /** Writes the time into an array element. */
    public int spread(int[] a) {
        a[0] = (int) System.nanoTime();
        return a.length;
    }

    /** The start time plus the ticks. */
    public long since() {
        return START + ticks;
    }

    /** Compares the start time. */
    public boolean started() {
        return START != 0 && ticks > 0;
    }
}
