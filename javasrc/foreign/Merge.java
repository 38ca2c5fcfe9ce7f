package foreign;

/** Invariants over parameters: a static precondition on two lists, and instance ones taking the argument. */
public class Merge {
    /** A node of a singly linked list. */
    public static class Node {
        int value;
        Node next;
    }

    Node head;

    /** Both lists sorted ascending, short and acyclic, with no node in common. */
    public static boolean pre(Node a, Node b) {
        return sorted(a) && sorted(b) && disjoint(a, b);
    }

    /** The receiver's list and the argument, as {@link #pre(Node, Node)} wants them. */
    public boolean pre(Node other) {
        return pre(head, other);
    }

    /** The same invariant as a static method of the receiver and the argument. */
    public static boolean wellFormed(Merge m, Node other) {
        return m.pre(other);
    }

    static boolean sorted(Node n) {
        int k = 0;
        while (n != null && n.next != null) {
            if (n.value > n.next.value || ++k > 4) {
                return false;
            }
            n = n.next;
        }
        return true;
    }

    static boolean disjoint(Node a, Node b) {
        for (Node x = a; x != null; x = x.next) {
            for (Node y = b; y != null; y = y.next) {
                if (x == y) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Merges two sorted lists into one, reusing their nodes; asserts the result is sorted. */
    public static Node merge(Node a, Node b) {
        Node head = null;
        Node tail = null;
        while (a != null || b != null) {
            Node take;
            if (b == null || (a != null && a.value <= b.value)) {
                take = a;
                a = a.next;
            } else {
                take = b;
                b = b.next;
            }
            if (tail == null) {
                head = take;
            } else {
                tail.next = take;
            }
            tail = take;
        }
        assert sorted(head);
        return head;
    }

    /** Merges the argument into the receiver's list. */
    public void mergeIn(Node other) {
        head = merge(head, other);
    }
}
