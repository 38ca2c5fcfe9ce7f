package frontend;

/** Overloaded methods, for method-spec resolution in the CLI (`Overloads#add` is ambiguous). */
public class Overloads {
    int total;

    public int add(int x) {
        total += x;
        return total;
    }

    public long add(long x) {
        return total + x;
    }

    public int add(int x, int y) {
        return x + y;
    }

    public static int unique(int k) {
        switch (k) {
            case 1: return 10;
            case 5: return 50;
            default: return -1;
        }
    }

    public native int nat();
}
