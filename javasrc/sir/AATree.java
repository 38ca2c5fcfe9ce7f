package sir;

/** An AA tree (Andersson) of distinct int keys with a sentinel node {@code nil}. */
public class AATree {
    AaNode nil;
    AaNode root;
    int size;

    /** An empty tree: the sentinel (level 0, its own children) is the root. */
    public AATree() {
        nil = new AaNode();
        nil.left = nil;
        nil.right = nil;
        root = nil;
    }

    /**
     * The sentinel is level 0 and points to itself; keys ordered; a leaf has level 1, a left
     * child is one level lower, a right child is at most one level lower, and a right
     * grandchild is strictly lower; size nodes. All but the size are checked on the way down,
     * so an invalid input is rejected at the first node that breaks them; ordering also rules
     * out a node reached twice or a cycle.
     */
    public boolean repOK() {
        if (nil == null || nil.level != 0 || nil.left != nil || nil.right != nil) return false;
        if (root == null || size < 0) return false;
        if (!check(root, 0, false, 0, false)) return false;
        return count(root) == size;
    }

    private boolean check(AaNode t, int lo, boolean hasLo, int hi, boolean hasHi) {
        if (t == nil) return true;
        if (t == null) return false;
        if (hasLo && t.key <= lo) return false;
        if (hasHi && t.key >= hi) return false;
        if (t.left == nil && t.right == nil && t.level != 1) return false;
        if (t.left == null || t.left.level != t.level - 1) return false;
        if (t.right == null || (t.right.level != t.level && t.right.level != t.level - 1)) return false;
        if (t.right != nil && (t.right.right == null || t.right.right.level >= t.level)) return false;
        return check(t.left, lo, hasLo, t.key, true) && check(t.right, t.key, true, hi, hasHi);
    }

    private int count(AaNode t) {
        return t == nil ? 0 : 1 + count(t.left) + count(t.right);
    }

    private AaNode skew(AaNode t) {
        if (t != nil && t.left.level == t.level) {
            AaNode l = t.left;
            t.left = l.right;
            l.right = t;
            return l;
        }
        return t;
    }

    private AaNode split(AaNode t) {
        if (t != nil && t.right.right.level == t.level) {
            AaNode r = t.right;
            t.right = r.left;
            r.left = t;
            r.level = r.level + 1;
            return r;
        }
        return t;
    }

    public boolean insert(int key) {
        int before = size;
        root = insert(root, key);
        return size > before;
    }

    private AaNode insert(AaNode t, int key) {
        if (t == nil) {
            AaNode n = new AaNode();
            n.key = key;
            n.level = 1;
            n.left = nil;
            n.right = nil;
            size = size + 1;
            return n;
        }
        if (key < t.key) t.left = insert(t.left, key);
        else if (key > t.key) t.right = insert(t.right, key);
        else return t;
        return split(skew(t));
    }

    public boolean contains(int key) {
        AaNode t = root;
        while (t != nil) {
            if (key == t.key) return true;
            t = key < t.key ? t.left : t.right;
        }
        return false;
    }

    public int min() {
        if (root == nil) return -1;
        AaNode t = root;
        while (t.left != nil) t = t.left;
        return t.key;
    }

    public int max() {
        if (root == nil) return -1;
        AaNode t = root;
        while (t.right != nil) t = t.right;
        return t.key;
    }

    public boolean isEmpty() {
        return root == nil;
    }
}
