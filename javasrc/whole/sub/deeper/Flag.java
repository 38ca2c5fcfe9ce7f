package whole.sub.deeper;

/** Two levels down. */
public class Flag {
    public boolean on(int bits) {
        return (bits & 1) == 1;
    }
}
