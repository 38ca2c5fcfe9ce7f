package foreign;

import java.util.Collections;
import java.util.List;

/** An interface whose implementations include anonymous classes, and a JDK object held in a static. */
public class Shapes {
    /** A shape with an area. */
    public interface Shape {
        int area();
    }

    /** An anonymous shape: a test cannot name its class. */
    public static final Shape UNIT = new Shape() {
        public int area() {
            return 1;
        }
    };

    /** A JDK object the class initializer makes: an empty list with one int field. */
    private static final List<Shape> NONE = Collections.emptyList();

    /** Twice the area of a shape, 0 for none. */
    public static int twice(Shape s) {
        if (s == null) {
            return NONE.size();
        }
        return 2 * s.area();
    }
}
