package uberlazy.models;

/**
 * What uberlazy runs for the methods of java.lang.reflect.Array that library code calls (the
 * JDK's are native): the JVM's checks, then the array's length.
 */
public final class JdkReflectArray {
    private JdkReflectArray() {
    }

    public static int getLength(Object array) {
        if (array == null) {
            throw new NullPointerException();
        }
        if (array instanceof Object[]) {
            return ((Object[]) array).length;
        } else if (array instanceof int[]) {
            return ((int[]) array).length;
        } else if (array instanceof long[]) {
            return ((long[]) array).length;
        } else if (array instanceof char[]) {
            return ((char[]) array).length;
        } else if (array instanceof byte[]) {
            return ((byte[]) array).length;
        } else if (array instanceof boolean[]) {
            return ((boolean[]) array).length;
        } else if (array instanceof short[]) {
            return ((short[]) array).length;
        } else if (array instanceof double[]) {
            return ((double[]) array).length;
        } else if (array instanceof float[]) {
            return ((float[]) array).length;
        }
        throw new IllegalArgumentException("Argument is not an array");
    }
}
