package ops;

/** An interface, so that calls through it are invokeinterface. */
public interface Sized {
    int size();
}
