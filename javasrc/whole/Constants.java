package whole;

/** Public and concrete but without a method to test: left out. */
public class Constants {
    public static final int LIMIT = 3;
}
