package subjects;

/** Virtual dispatch on a materialized input object. */
public class Holder {
    Shape shape;

    public int area() {
        if (shape == null) return 0;
        return shape.area();
    }

    public boolean isSquare() {
        return shape instanceof Square;
    }
}
