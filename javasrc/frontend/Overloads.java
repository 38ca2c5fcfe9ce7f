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

    public static int dense(int k) {
        switch (k) {
            case 0: return 7;
            case 1: return 8;
            case 2: return 9;
            case 3: return 10;
            default: return 0;
        }
    }

    public native int nat();
}
