package subjects;

/** An abstract shape: fresh input objects of this type are one of its concrete subclasses. */
public abstract class Shape {
    public abstract int area();

    /** Inherited by every shape: `subjects.Square#scaled` targets it with a Square receiver. */
    public int scaled(int k) {
        if (k < 0) {
            return 0;
        }
        return k * area();
    }
}
