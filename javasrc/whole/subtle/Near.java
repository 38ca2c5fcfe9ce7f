package whole.subtle;

/** A package whose name starts with `whole.sub` but is not below it: not selected by `--package whole.sub`. */
public class Near {
    public int max(int a, int b) {
        return a > b ? a : b;
    }
}
