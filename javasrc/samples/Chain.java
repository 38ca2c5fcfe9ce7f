package samples;

/** POSE paper, Fig. 1 (c): is there a null within MAX links? */
public class Chain {
    Chain next;

    public boolean hasNull4() {
        Chain s = next;
        int i = 1;
        while (s != null && i <= 4) {
            s = s.next;
            i = i + 1;
        }
        return s == null;
    }

    public boolean hasNull10() {
        Chain s = next;
        int i = 1;
        while (s != null && i <= 10) {
            s = s.next;
            i = i + 1;
        }
        return s == null;
    }
}
