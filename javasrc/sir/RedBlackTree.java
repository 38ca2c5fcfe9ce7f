package sir;

/** A red-black tree of distinct int keys with parent pointers, in the style of java.util.TreeMap. */
public class RedBlackTree {
    RbNode root;
    int size;

    /**
     * size nodes, keys ordered, parent pointers consistent, the root black, no red node with
     * a red child, and the same number of black nodes on every path.
     */
    public boolean repOK() {
        if (size < 0) return false;
        if (root == null) return size == 0;
        if (root.parent != null || root.red) return false;
        if (count(root, 0) != size) return false;
        return ordered(root, 0, false, 0, false) && blackHeight(root) >= 0;
    }

    private int count(RbNode t, int seen) {
        if (t == null) return seen;
        if (seen >= size) return size + 1;
        int l = count(t.left, seen + 1);
        if (l > size) return l;
        return count(t.right, l);
    }

    private boolean ordered(RbNode t, int lo, boolean hasLo, int hi, boolean hasHi) {
        if (t == null) return true;
        if (hasLo && t.key <= lo) return false;
        if (hasHi && t.key >= hi) return false;
        return ordered(t.left, lo, hasLo, t.key, true) && ordered(t.right, t.key, true, hi, hasHi);
    }

    /** Black nodes on every path below t (null leaves count 1), or -1 if a rule is broken. */
    private int blackHeight(RbNode t) {
        if (t == null) return 1;
        if (t.left != null && t.left.parent != t) return -1;
        if (t.right != null && t.right.parent != t) return -1;
        if (t.red && ((t.left != null && t.left.red) || (t.right != null && t.right.red))) return -1;
        int l = blackHeight(t.left);
        if (l < 0) return -1;
        int r = blackHeight(t.right);
        if (r != l) return -1;
        return t.red ? l : l + 1;
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
