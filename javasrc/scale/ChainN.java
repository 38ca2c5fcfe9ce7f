package scale;

/** The POSE paper's Chain pattern at larger bounds: is there a null within N links? */
public class ChainN {
    ChainN next;

    public boolean hasNull32() {
        ChainN s = next;
        int i = 1;
        while (s != null && i <= 32) {
            s = s.next;
            i = i + 1;
        }
        return s == null;
    }

    public boolean hasNull64() {
        ChainN s = next;
        int i = 1;
        while (s != null && i <= 64) {
            s = s.next;
            i = i + 1;
        }
        return s == null;
    }
}
