package subjects;

/** A circle (with an integer stand-in for pi). */
public class Circle extends Shape {
    int r;

    @Override
    public int area() {
        return 3 * r * r;
    }
}
