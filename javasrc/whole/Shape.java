package whole;

/** Abstract: left out of `gen --package whole`, with why. */
public abstract class Shape {
    public abstract int area();

    public int twice() {
        return 2 * area();
    }
}
