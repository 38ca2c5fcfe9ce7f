package ops;

/** athrow, handlers with and without a catch type, and exceptions from the machine. */
public class Exceptions {
    int val;

    static int caught(int a, int b) {
        try {
            return a / b;
        } catch (ArithmeticException e) {
            return 0;
        }
    }

    static int thrown(int a) {
        if (a < 0) {
            throw new IllegalArgumentException("negative");
        }
        return a;
    }

    static int finallyBlock(Exceptions e) {
        int r = 0;
        try {
            r = e.val;
        } finally {
            r = r + 1;
        }
        return r;
    }

    static int anyException(Exceptions e) {
        try {
            return e.val;
        } catch (RuntimeException x) {
            return -1;
        }
    }
}
