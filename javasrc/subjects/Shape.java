package subjects;

/** An abstract shape: fresh input objects of this type are one of its concrete subclasses. */
public abstract class Shape {
    public abstract int area();
}
