package sir;

/** An AVL tree of distinct int keys. */
public class AvlTree {
    AvlNode root;
    int size;

    /**
     * Keys ordered, stored heights right, balance factors in [-1, 1], and size nodes. The
     * order, heights and balance are checked on the way down, so an invalid input is
     * rejected at the first node that breaks them; ordering also rules out a node reached
     * twice or a cycle (it would need a key both below and above some ancestor's).
     */
    public boolean repOK() {
        if (size < 0) return false;
        if (check(root, 0, false, 0, false) < 0) return false;
        return count(root) == size;
    }

    /** The height of t if its keys lie in (lo, hi), are ordered and its heights and balance are right, else -1. */
    private int check(AvlNode t, int lo, boolean hasLo, int hi, boolean hasHi) {
        if (t == null) return 0;
        if (hasLo && t.key <= lo) return -1;
        if (hasHi && t.key >= hi) return -1;
        int l = check(t.left, lo, hasLo, t.key, true);
        if (l < 0) return -1;
        int r = check(t.right, t.key, true, hi, hasHi);
        if (r < 0) return -1;
        if (l - r > 1 || r - l > 1) return -1;
        int h = 1 + (l > r ? l : r);
        return t.height == h ? h : -1;
    }

    private static int count(AvlNode t) {
        return t == null ? 0 : 1 + count(t.left) + count(t.right);
    }

    private static int height(AvlNode t) {
        return t == null ? 0 : t.height;
    }

    private static void fix(AvlNode t) {
        int l = height(t.left);
        int r = height(t.right);
        t.height = 1 + (l > r ? l : r);
    }

    private static AvlNode rotateRight(AvlNode t) {
        AvlNode l = t.left;
        t.left = l.right;
        l.right = t;
        fix(t);
        fix(l);
        return l;
    }

    private static AvlNode rotateLeft(AvlNode t) {
        AvlNode r = t.right;
        t.right = r.left;
        r.left = t;
        fix(t);
        fix(r);
        return r;
    }

    private static AvlNode rebalance(AvlNode t) {
        fix(t);
        int b = height(t.left) - height(t.right);
        if (b > 1) {
            if (height(t.left.left) < height(t.left.right)) t.left = rotateLeft(t.left);
            return rotateRight(t);
        }
        if (b < -1) {
            if (height(t.right.right) < height(t.right.left)) t.right = rotateRight(t.right);
            return rotateLeft(t);
        }
        return t;
    }

    public boolean insert(int key) {
        int before = size;
        root = insert(root, key);
        return size > before;
    }

    private AvlNode insert(AvlNode t, int key) {
        if (t == null) {
            AvlNode n = new AvlNode();
            n.key = key;
            n.height = 1;
            size = size + 1;
            return n;
        }
        if (key < t.key) t.left = insert(t.left, key);
        else if (key > t.key) t.right = insert(t.right, key);
        else return t;
        return rebalance(t);
    }

    public boolean contains(int key) {
        AvlNode t = root;
        while (t != null) {
            if (key == t.key) return true;
            t = key < t.key ? t.left : t.right;
        }
        return false;
    }

    public int min() {
        if (root == null) return -1;
        AvlNode t = root;
        while (t.left != null) t = t.left;
        return t.key;
    }

    public int max() {
        if (root == null) return -1;
        AvlNode t = root;
        while (t.right != null) t = t.right;
        return t.key;
    }

    public boolean isEmpty() {
        return root == null;
    }

    public int height() {
        return height(root);
    }
}
