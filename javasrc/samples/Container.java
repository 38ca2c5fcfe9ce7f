package samples;

/** POSE paper, Fig. 1 (a): swap the data of two containers. */
public class Container {
    Object data;

    public void swap(Container c) {
        if (c == null) return;
        Object e = this.data;
        this.data = c.data;
        c.data = e;
    }
}
