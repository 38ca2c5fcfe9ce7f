package whole;

/** A public concrete class: a target of `gen --package whole`. */
public class Counter {
    int count;

    public int step(int by) {
        if (by > 0) {
            count += by;
            return count;
        }
        return 0;
    }
}
