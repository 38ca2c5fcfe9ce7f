package foreign;

import java.util.HashSet;
import java.util.Set;

/** A circular list around a header entry whose invariant keeps the entries it saw in a java.util.HashSet. */
public class Ring {
    private Entry header;
    private int size;

    public boolean repOK() {
        if (header == null) {
            return false;
        }
        Set<Entry> seen = new HashSet<Entry>();
        seen.add(header);
        Entry at = header;
        while (true) {
            Entry next = at.next;
            if (next == null || next.prev != at) {
                return false;
            }
            at = next;
            if (!seen.add(next)) {
                break;
            }
        }
        return at == header;
    }

    public boolean remove(int v) {
        for (Entry e = header.next; e != header; e = e.next) {
            if (e.value == v) {
                e.prev.next = e.next;
                e.next.prev = e.prev;
                size--;
                return true;
            }
        }
        return false;
    }

    static class Entry {
        int value;
        Entry next;
        Entry prev;
    }
}
