package foreign;

/** A count whose code is in a package-private base class; the public class adds only constructors. */
public class Tally extends TallyBase {
    public Tally() {
    }

    public Tally(int start) {
        count = start;
    }

    /** The count in tens: overrides the base's with a covariant result (through a bridge). */
    @Override
    public Integer snapshot() {
        return Integer.valueOf(count * 10);
    }
}

/** The code of {@link Tally}: javac gives Tally a public bridge for each public method here. */
abstract class TallyBase {
    int count;

    public void add(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative");
        }
        count += n;
    }

    public int count() {
        return count;
    }

    int twice() {
        return 2 * count;
    }

    /** The count as an object. */
    public Object snapshot() {
        return Integer.valueOf(count);
    }
}
