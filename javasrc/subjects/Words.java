package subjects;

/** A small String-keyed dictionary: keys compared, hashed and read character by character. */
public class Words {
    static class Entry {
        String key;
        int count;
        Entry next;
    }

    Entry head;

    /** The count of a key in the list, which is sorted by key. */
    public int count(String key) {
        for (Entry e = head; e != null; e = e.next) {
            int c = e.key.compareTo(key);
            if (c == 0) {
                return e.count;
            }
            if (c > 0) {
                return 0;
            }
        }
        return 0;
    }

    /** The bucket of a key among four, as a hash table picks it. */
    public static int bucket(String key) {
        return key.hashCode() & 3;
    }

    /** Whether a word starts with a capital letter. */
    public static boolean capitalized(String w) {
        return !w.isEmpty() && w.charAt(0) >= 'A' && w.charAt(0) <= 'Z';
    }

    /** Whether the word is this literal. */
    public static boolean isStop(Object w) {
        return "the".equals(w) || (w instanceof String && ((String) w).length() > 5);
    }
}
