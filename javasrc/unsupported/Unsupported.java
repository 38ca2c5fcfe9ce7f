package unsupported;

/** Instructions the lowering rejects with a clear error: invokedynamic, monitors, multianewarray. */
public class Unsupported {
    int val;

    Runnable lambda() {
        return () -> val++;
    }

    synchronized int locked() {
        synchronized (this) {
            return val;
        }
    }

    int[][] grid(int n) {
        return new int[n][n];
    }

    int plain() {
        return val;
    }
}
