package sir;

/** A circular doubly linked list with a header node (as java.util.LinkedList once was). */
public class DoublyLinkedList {
    DllNode header;
    int size;

    /** An empty list: the header alone, linked to itself. */
    public DoublyLinkedList() {
        header = new DllNode();
        header.next = header;
        header.prev = header;
    }

    /** The header closes a cycle of exactly size nodes, and next/prev agree everywhere. */
    public boolean repOK() {
        if (header == null || size < 0) return false;
        DllNode cur = header;
        int n = 0;
        while (true) {
            DllNode nx = cur.next;
            if (nx == null || nx.prev != cur) return false;
            if (nx == header) break;
            n = n + 1;
            if (n > size) return false;
            cur = nx;
        }
        return n == size;
    }

    private void linkAfter(DllNode at, int key) {
        DllNode n = new DllNode();
        n.key = key;
        n.prev = at;
        n.next = at.next;
        at.next.prev = n;
        at.next = n;
        size = size + 1;
    }

    public void addFirst(int key) {
        linkAfter(header, key);
    }

    public void addLast(int key) {
        linkAfter(header.prev, key);
    }

    private int unlink(DllNode n) {
        n.prev.next = n.next;
        n.next.prev = n.prev;
        size = size - 1;
        return n.key;
    }

    public int removeFirst() {
        if (header.next == header) return -1;
        return unlink(header.next);
    }

    public int removeLast() {
        if (header.prev == header) return -1;
        return unlink(header.prev);
    }

    public boolean contains(int key) {
        for (DllNode n = header.next; n != header; n = n.next) {
            if (n.key == key) return true;
        }
        return false;
    }

    public boolean remove(int key) {
        for (DllNode n = header.next; n != header; n = n.next) {
            if (n.key == key) {
                unlink(n);
                return true;
            }
        }
        return false;
    }

    public int getFirst() {
        if (header.next == header) return -1;
        return header.next.key;
    }

    public boolean isEmpty() {
        return header.next == header;
    }
}
