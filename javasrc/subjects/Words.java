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

    /** The word without its first letter, or the word itself when it is empty. */
    public static String tail(String w) {
        return w.isEmpty() ? w : w.substring(1);
    }

    /** The letters of a word from one index to another. */
    public static String part(String w, int from, int to) {
        return w.substring(from, to);
    }

    /** The last letter of a word, read from its characters as an array. */
    public static char last(String w) {
        char[] cs = w.toCharArray();
        return cs[cs.length - 1];
    }
}
