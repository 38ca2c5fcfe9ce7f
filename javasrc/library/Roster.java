package library;

import java.util.Collection;
import java.util.List;

/** Names without duplicates, kept in a list the caller gives (a decorator made by a factory). */
public class Roster {
    private final List<Object> names;

    private Roster(List<Object> names) {
        this.names = names;
    }

    /** A roster kept in `names`. */
    public static Roster over(List<Object> names) {
        if (names == null) {
            throw new NullPointerException("names");
        }
        return new Roster(names);
    }

    /** Adds `name` unless it is there already. */
    public boolean add(Object name) {
        if (names.contains(name)) {
            return false;
        }
        return names.add(name);
    }

    public int size() {
        return names.size();
    }

    /** How many of `others` are on the roster. */
    public int countIn(Collection<?> others) {
        int n = 0;
        for (Object o : others) {
            if (names.contains(o)) {
                n++;
            }
        }
        return n;
    }
}
