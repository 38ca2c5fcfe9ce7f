package sir;

/** A binomial min-heap of int keys (Cormen et al., ch. 19). */
public class BinomialHeap {
    BinomialNode head;
    int size;

    /**
     * Roots have no parent and strictly increasing degrees; each root is a binomial tree of
     * its degree (children of degrees d-1 .. 0, parent links back, heap order); size nodes.
     */
    public boolean repOK() {
        if (size < 0) return false;
        int n = 0;
        int lastDegree = -1;
        BinomialNode r = head;
        while (r != null) {
            if (r.parent != null || r.degree <= lastDegree) return false;
            lastDegree = r.degree;
            int c = tree(r, size - n);
            if (c < 0) return false;
            n = n + c;
            r = r.sibling;
        }
        return n == size;
    }

    /** The node count of t if it is a binomial tree of order t.degree within budget, else -1. */
    private int tree(BinomialNode t, int budget) {
        if (budget <= 0 || t.degree < 0 || t.degree > 30) return -1;
        int total = 1;
        int expect = t.degree - 1;
        BinomialNode c = t.child;
        while (c != null) {
            if (expect < 0 || c.parent != t || c.degree != expect || c.key < t.key) return -1;
            int sub = tree(c, budget - total);
            if (sub < 0) return -1;
            total = total + sub;
            expect = expect - 1;
            c = c.sibling;
        }
        return expect == -1 ? total : -1;
    }

    public void insert(int key) {
        BinomialNode n = new BinomialNode();
        n.key = key;
        head = union(head, n);
        size = size + 1;
    }

    public int findMin() {
        if (head == null) return -1;
        int min = head.key;
        for (BinomialNode r = head.sibling; r != null; r = r.sibling) {
            if (r.key < min) min = r.key;
        }
        return min;
    }

    public int extractMin() {
        if (head == null) return -1;
        BinomialNode minPrev = null;
        BinomialNode min = head;
        BinomialNode prev = head;
        for (BinomialNode r = head.sibling; r != null; r = r.sibling) {
            if (r.key < min.key) {
                min = r;
                minPrev = prev;
            }
            prev = r;
        }
        if (minPrev == null) head = min.sibling;
        else minPrev.sibling = min.sibling;
        BinomialNode reversed = null;
        BinomialNode c = min.child;
        while (c != null) {
            BinomialNode next = c.sibling;
            c.parent = null;
            c.sibling = reversed;
            reversed = c;
            c = next;
        }
        head = union(head, reversed);
        size = size - 1;
        return min.key;
    }

    public boolean isEmpty() {
        return head == null;
    }

    public int size() {
        return size;
    }

    private BinomialNode union(BinomialNode a, BinomialNode b) {
        BinomialNode h = merge(a, b);
        if (h == null) return null;
        BinomialNode prev = null;
        BinomialNode x = h;
        BinomialNode next = x.sibling;
        while (next != null) {
            if (x.degree != next.degree || (next.sibling != null && next.sibling.degree == x.degree)) {
                prev = x;
                x = next;
            } else if (x.key <= next.key) {
                x.sibling = next.sibling;
                link(next, x);
            } else {
                if (prev == null) h = next;
                else prev.sibling = next;
                link(x, next);
                x = next;
            }
            next = x.sibling;
        }
        return h;
    }

    private static void link(BinomialNode y, BinomialNode z) {
        y.parent = z;
        y.sibling = z.child;
        z.child = y;
        z.degree = z.degree + 1;
    }

    private static BinomialNode merge(BinomialNode a, BinomialNode b) {
        BinomialNode head = null;
        BinomialNode tail = null;
        while (a != null && b != null) {
            BinomialNode pick;
            if (a.degree <= b.degree) {
                pick = a;
                a = a.sibling;
            } else {
                pick = b;
                b = b.sibling;
            }
            if (tail == null) head = pick;
            else tail.sibling = pick;
            tail = pick;
        }
        BinomialNode rest = a != null ? a : b;
        if (tail == null) return rest;
        tail.sibling = rest;
        return head;
    }
}
