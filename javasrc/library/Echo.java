package library;

/** A function from a value to a value of the same type (an interface with a type parameter). */
public interface Echo<T> {
    T echo(T x);
}
