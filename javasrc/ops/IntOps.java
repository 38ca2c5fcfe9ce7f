package ops;

/** int and long arithmetic, shifts, bitwise operators, iinc and conversions. */
public class IntOps {
    static int arith(int a, int b) {
        int s = a + b;
        int d = a - b;
        int m = a * b;
        return s * d - m;
    }

    static int divRem(int a, int b) {
        return a / b + a % b;
    }

    static long longArith(long a, long b) {
        long x = a * b + (a - b);
        return x / 3L + x % 7L;
    }

    static int shifts(int a, int n) {
        return (a << n) ^ (a >> 2) | (a >>> n) & 0xff;
    }

    static long longShifts(long a, int n) {
        return (a << n) ^ (a >> 3) | (a >>> n) & 0xffL;
    }

    static int negate(int a, long b) {
        return -a + (int) -b;
    }

    static int counter(int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            c += 3;
        }
        return c;
    }

    static int conversions(int a, long b) {
        byte y = (byte) a;
        char c = (char) a;
        short s = (short) a;
        long l = a;
        int i = (int) b;
        return y + c + s + (int) l + i;
    }

    static int constants() {
        int a = -1 + 0 + 1 + 2 + 3 + 4 + 5;
        int b = 100;
        int c = 1000;
        int d = 100000;
        long e = 0L + 1L + 123456789012L;
        return a + b + c + d + (int) e;
    }
}
