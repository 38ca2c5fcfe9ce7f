package unsupported;

/** Instructions the lowering rejects with a clear error: multianewarray. */
public class Unsupported {
    int val;

    int[][] grid(int n) {
        return new int[n][n];
    }

    int plain() {
        return val;
    }
}
