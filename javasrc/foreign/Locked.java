package foreign;

/** A counter whose invariant asks the JVM about its lock: a native method no model covers. */
public class Locked {
    private int count;

    public boolean repOK() {
        return count >= 0 && !Thread.holdsLock(this);
    }

    public int next() {
        return ++count;
    }
}
