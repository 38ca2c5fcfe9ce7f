package sir;

/** A linked stack of int keys with a size field. */
public class Stack {
    StackNode top;
    int size;

    /** Acyclic and size equals the number of nodes. */
    public boolean repOK() {
        if (size < 0) return false;
        int n = 0;
        StackNode cur = top;
        while (cur != null) {
            n = n + 1;
            if (n > size) return false;
            cur = cur.below;
        }
        return n == size;
    }

    public void push(int key) {
        StackNode n = new StackNode();
        n.key = key;
        n.below = top;
        top = n;
        size = size + 1;
    }

    public int pop() {
        if (top == null) return -1;
        int k = top.key;
        top = top.below;
        size = size - 1;
        return k;
    }

    public int peek() {
        if (top == null) return -1;
        return top.key;
    }

    public boolean isEmpty() {
        return top == null;
    }

    public int size() {
        return size;
    }

    public boolean contains(int key) {
        StackNode cur = top;
        while (cur != null) {
            if (cur.key == key) return true;
            cur = cur.below;
        }
        return false;
    }
}
