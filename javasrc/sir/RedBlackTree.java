package sir;

/** A red-black tree of distinct int keys with parent pointers, in the style of java.util.TreeMap. */
public class RedBlackTree {
    RbNode root;
    int size;

    /**
     * Keys ordered, parent pointers consistent, the root black, no red node with a red
     * child, the same number of black nodes on every path, and size nodes. All but the size
     * are checked on the way down, so an invalid input is rejected at the first node that
     * breaks them; ordering also rules out a node reached twice or a cycle.
     */
    public boolean repOK() {
        if (size < 0) return false;
        if (root == null) return size == 0;
        if (root.red) return false;
        if (check(root, null, 0, false, 0, false) < 0) return false;
        return count(root) == size;
    }

    /** Black nodes on every path below t (null leaves count 1), or -1 if a rule is broken. */
    private int check(RbNode t, RbNode parent, int lo, boolean hasLo, int hi, boolean hasHi) {
        if (t == null) return 1;
        if (t.parent != parent) return -1;
        if (hasLo && t.key <= lo) return -1;
        if (hasHi && t.key >= hi) return -1;
        if (t.red && parent != null && parent.red) return -1;
        int l = check(t.left, t, lo, hasLo, t.key, true);
        if (l < 0) return -1;
        int r = check(t.right, t, t.key, true, hi, hasHi);
        if (r != l) return -1;
        return t.red ? l : l + 1;
    }

    private static int count(RbNode t) {
        return t == null ? 0 : 1 + count(t.left) + count(t.right);
    }

    public boolean contains(int key) {
        RbNode t = root;
        while (t != null) {
            if (key == t.key) return true;
            t = key < t.key ? t.left : t.right;
        }
        return false;
    }

    public boolean insert(int key) {
        RbNode parent = null;
        RbNode t = root;
        while (t != null) {
            if (key == t.key) return false;
            parent = t;
            t = key < t.key ? t.left : t.right;
        }
        RbNode n = new RbNode();
        n.key = key;
        n.red = true;
        n.parent = parent;
        if (parent == null) root = n;
        else if (key < parent.key) parent.left = n;
        else parent.right = n;
        size = size + 1;
        fixAfterInsert(n);
        return true;
    }

    private void fixAfterInsert(RbNode x) {
        while (x != root && x.parent.red) {
            RbNode p = x.parent;
            RbNode g = p.parent;
            if (p == g.left) {
                RbNode u = g.right;
                if (u != null && u.red) {
                    p.red = false;
                    u.red = false;
                    g.red = true;
                    x = g;
                } else {
                    if (x == p.right) {
                        x = p;
                        rotateLeft(x);
                        p = x.parent;
                    }
                    p.red = false;
                    g.red = true;
                    rotateRight(g);
                }
            } else {
                RbNode u = g.left;
                if (u != null && u.red) {
                    p.red = false;
                    u.red = false;
                    g.red = true;
                    x = g;
                } else {
                    if (x == p.left) {
                        x = p;
                        rotateRight(x);
                        p = x.parent;
                    }
                    p.red = false;
                    g.red = true;
                    rotateLeft(g);
                }
            }
        }
        root.red = false;
    }

    private void rotateLeft(RbNode x) {
        RbNode r = x.right;
        x.right = r.left;
        if (r.left != null) r.left.parent = x;
        r.parent = x.parent;
        if (x.parent == null) root = r;
        else if (x.parent.left == x) x.parent.left = r;
        else x.parent.right = r;
        r.left = x;
        x.parent = r;
    }

    private void rotateRight(RbNode x) {
        RbNode l = x.left;
        x.left = l.right;
        if (l.right != null) l.right.parent = x;
        l.parent = x.parent;
        if (x.parent == null) root = l;
        else if (x.parent.right == x) x.parent.right = l;
        else x.parent.left = l;
        l.right = x;
        x.parent = l;
    }

    public int min() {
        if (root == null) return -1;
        RbNode t = root;
        while (t.left != null) t = t.left;
        return t.key;
    }

    public int max() {
        if (root == null) return -1;
        RbNode t = root;
        while (t.right != null) t = t.right;
        return t.key;
    }

    public boolean isEmpty() {
        return root == null;
    }
}
