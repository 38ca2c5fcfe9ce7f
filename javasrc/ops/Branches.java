package ops;

/** Every conditional branch, lcmp, goto and both switch instructions. */
public class Branches {
    Branches other;

    static int signs(int a) {
        if (a == 0) return 0;
        if (a != 1) {
            if (a < 0) return -1;
            if (a >= 10) return 10;
            if (a > 5) return 5;
            if (a <= 2) return 2;
        }
        return 1;
    }

    static int compareInts(int a, int b) {
        if (a == b) return 0;
        if (a != b + 1) {
            if (a < b) return -1;
            if (a >= b + 10) return 10;
            if (a > b + 5) return 5;
            if (a <= b + 2) return 2;
        }
        return 1;
    }

    static int compareLongs(long a, long b) {
        if (a < b) return -1;
        if (a > b) return 1;
        return 0;
    }

    int refs(Branches b) {
        if (b == null) return 0;
        if (b != other) return 1;
        if (b.other == this) return 2;
        if (other != null) return 3;
        return 4;
    }

    static int table(int k) {
        switch (k) {
            case 1: return 10;
            case 2: return 20;
            case 3: return 30;
            case 4: return 40;
            default: return -1;
        }
    }

    static int lookup(int k) {
        switch (k) {
            case -100: return 1;
            case 0: return 2;
            case 1000: return 3;
            default: return 4;
        }
    }

    static boolean ternary(boolean a, boolean b) {
        return a && b || !a;
    }
}
