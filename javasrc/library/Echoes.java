package library;

/** Takes an interface-typed argument a test builds by a factory declared to return the interface. */
public final class Echoes {
    private Echoes() {
    }

    /** Whether `e` gives `x` back unchanged. */
    public static boolean echoes(Echo<Object> e, Object x) {
        return e.echo(x) == x;
    }
}
