package sir;

/** An unbalanced binary search tree of distinct int keys with a size field. */
public class BinarySearchTree {
    BstNode root;
    int size;

    /**
     * Keys strictly ordered (left below, right above) and size equal to the node count.
     * Ordering also makes the structure a tree: a node reached twice, or a cycle, would
     * need a key both below and above some ancestor's. It is checked on the way down, so
     * an invalid input is rejected at the first node that breaks it.
     */
    public boolean repOK() {
        if (size < 0) return false;
        return count(root, 0, false, 0, false) == size;
    }

    /** The number of nodes below t if their keys lie strictly inside (lo, hi) and are ordered, else -1. */
    private int count(BstNode t, int lo, boolean hasLo, int hi, boolean hasHi) {
        if (t == null) return 0;
        if (hasLo && t.key <= lo) return -1;
        if (hasHi && t.key >= hi) return -1;
        int l = count(t.left, lo, hasLo, t.key, true);
        if (l < 0) return -1;
        int r = count(t.right, t.key, true, hi, hasHi);
        if (r < 0) return -1;
        return l + r + 1;
    }

    public boolean contains(int key) {
        BstNode t = root;
        while (t != null) {
            if (key == t.key) return true;
            t = key < t.key ? t.left : t.right;
        }
        return false;
    }

    public boolean add(int key) {
        BstNode n = new BstNode();
        n.key = key;
        if (root == null) {
            root = n;
            size = size + 1;
            return true;
        }
        BstNode t = root;
        while (true) {
            if (key == t.key) return false;
            if (key < t.key) {
                if (t.left == null) {
                    t.left = n;
                    size = size + 1;
                    return true;
                }
                t = t.left;
            } else {
                if (t.right == null) {
                    t.right = n;
                    size = size + 1;
                    return true;
                }
                t = t.right;
            }
        }
    }

    public int min() {
        if (root == null) return -1;
        BstNode t = root;
        while (t.left != null) t = t.left;
        return t.key;
    }

    public int max() {
        if (root == null) return -1;
        BstNode t = root;
        while (t.right != null) t = t.right;
        return t.key;
    }

    /** Removes key (the successor replaces a node with two children). */
    public boolean remove(int key) {
        BstNode parent = null;
        BstNode t = root;
        while (t != null && t.key != key) {
            parent = t;
            t = key < t.key ? t.left : t.right;
        }
        if (t == null) return false;
        if (t.left != null && t.right != null) {
            BstNode sp = t;
            BstNode s = t.right;
            while (s.left != null) {
                sp = s;
                s = s.left;
            }
            t.key = s.key;
            if (sp == t) sp.right = s.right; else sp.left = s.right;
        } else {
            BstNode child = t.left != null ? t.left : t.right;
            if (parent == null) root = child;
            else if (parent.left == t) parent.left = child;
            else parent.right = child;
        }
        size = size - 1;
        return true;
    }

    public boolean isEmpty() {
        return root == null;
    }
}
