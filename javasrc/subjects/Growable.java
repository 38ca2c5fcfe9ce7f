package subjects;

import java.util.Arrays;

/** Array-backed sequences: growth through Arrays.copyOf, removal through System.arraycopy. */
public class Growable {
    int[] keys;
    int count;
    Object[] items;
    int size;

    public void push(int x) {
        if (count == keys.length) {
            keys = Arrays.copyOf(keys, count * 2 + 1);
        }
        keys[count] = x;
        count++;
    }

    public Object removeAt(int i) {
        if (i < 0 || i >= size) {
            return null;
        }
        Object old = items[i];
        System.arraycopy(items, i + 1, items, i, size - i - 1);
        size--;
        items[size] = null;
        return old;
    }
}
