package foreign;

/**
 * A list that checks itself with {@code assert}, as third-party code does: javac gives the
 * class a static final {@code $assertionsDisabled} set by its class initializer, which also
 * computes another static final; the invariant {@code repOK} runs that initializer first.
 */
public class Checked {
    static final int LIMIT = limit();

    private Node head;
    private int size;

    static int limit() {
        return 3;
    }

    public boolean repOK() {
        int n = 0;
        for (Node x = head; x != null; x = x.next) {
            n++;
            if (n > size) {
                return false;
            }
        }
        return n == size;
    }

    public int first() {
        assert size >= 0 : "size";
        if (head == null) {
            throw new IllegalStateException("empty");
        }
        return head.value;
    }

    public void push(int v) {
        Node n = new Node();
        n.value = v;
        n.next = head;
        head = n;
        size++;
        assert repOK();
    }

    /** The assert fails on 42: an AssertionError with -ea, nothing without. */
    public int checked(int x) {
        assert x != 42 : "not 42";
        return x + LIMIT;
    }

    /** Copies the values into {@code a} and ends it with a 0 where it is longer (a store at an index the input picks). */
    public int[] toArray(int[] a) {
        int i = 0;
        for (Node x = head; x != null && i < a.length; x = x.next) {
            a[i++] = x.value;
        }
        if (a.length > size) {
            a[size] = 0;
        }
        return a;
    }

    static class Node {
        int value;
        Node next;
    }
}
