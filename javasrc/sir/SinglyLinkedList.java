package sir;

/** A singly linked list of int keys with a size field. */
public class SinglyLinkedList {
    SllNode head;
    int size;

    /** Acyclic (at most size nodes), and size equals the number of nodes. */
    public boolean repOK() {
        if (size < 0) return false;
        int n = 0;
        SllNode cur = head;
        while (cur != null) {
            n = n + 1;
            if (n > size) return false;
            cur = cur.next;
        }
        return n == size;
    }

    public void addFirst(int key) {
        SllNode n = new SllNode();
        n.key = key;
        n.next = head;
        head = n;
        size = size + 1;
    }

    public int removeFirst() {
        if (head == null) return -1;
        int k = head.key;
        head = head.next;
        size = size - 1;
        return k;
    }

    public boolean contains(int key) {
        SllNode cur = head;
        while (cur != null) {
            if (cur.key == key) return true;
            cur = cur.next;
        }
        return false;
    }

    public int indexOf(int key) {
        int i = 0;
        SllNode cur = head;
        while (cur != null) {
            if (cur.key == key) return i;
            i = i + 1;
            cur = cur.next;
        }
        return -1;
    }

    public int get(int index) {
        if (index < 0 || index >= size) return -1;
        SllNode cur = head;
        for (int i = 0; i < index; i++) {
            cur = cur.next;
        }
        return cur.key;
    }

    public boolean isEmpty() {
        return size == 0;
    }
}
