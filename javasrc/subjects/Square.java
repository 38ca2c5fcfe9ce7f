package subjects;

/** A square. */
public class Square extends Shape {
    int side;

    @Override
    public int area() {
        return side * side;
    }
}
