package whole.sub;

/** In a subpackage: selected by `--package whole` and `--package whole.sub`. */
public class Pair {
    Pair next;
    int key;

    public boolean linked() {
        return next != null && next.key == key;
    }
}
