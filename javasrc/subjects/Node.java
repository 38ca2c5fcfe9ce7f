package subjects;

/** A singly linked node with recursion and loops over the heap. */
public class Node {
    int val;
    Node next;

    /** Recursion over an input list (bounded by --max-depth / --max-calls). */
    public int length() {
        if (next == null) return 1;
        return 1 + next.length();
    }

    /** A loop over an input list; cut by --max-depth on long lists. */
    public int sum() {
        int s = 0;
        Node n = this;
        while (n != null) {
            s = s + n.val;
            n = n.next;
        }
        return s;
    }

    /** Reference comparison between inputs. */
    public boolean sameNext(Node other) {
        return other != null && this.next == other.next;
    }

    /** Writes through possibly-aliased references, then reads back. */
    public int aliasWrite(Node a, Node b) {
        a.val = 1;
        b.val = 2;
        return a.val;
    }
}
