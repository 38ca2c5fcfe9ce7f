package ops;

/** Objects: new, fields, statics, the four invokes, checkcast, instanceof and stack shuffles. */
public class Objects implements Sized {
    static int created;
    int size;
    long total;
    Objects next;

    public int size() {
        return size;
    }

    static Objects make(int n) {
        Objects o = new Objects();
        o.size = n;
        created = created + 1;
        return o;
    }

    int calls(Sized s) {
        int a = s.size();
        int b = this.size();
        int c = helper(a);
        int d = Math.max(a, b);
        return a + b + c + d;
    }

    private int helper(int x) {
        return x + size;
    }

    static int casts(Object o) {
        if (o instanceof Objects) {
            Objects x = (Objects) o;
            return x.size;
        }
        return -1;
    }

    int postIncrement() {
        return size++;
    }

    long longPostIncrement() {
        return total++;
    }

    int chainAssign(Objects a) {
        a.size = this.size = 7;
        return a.size;
    }

    static int staticPostIncrement() {
        return created++;
    }

    /** Results that are thrown away: pop (int) and pop2 (long). */
    long discard(Objects o) {
        o.size();
        o.longPostIncrement();
        return o.total;
    }
}
