package subjects;

/** A field hidden by a subclass's field of the same name: two fields, two values. */
public class Shadow extends ShadowBase {
    int size;

    public int sizes() {
        if (size == super.size) return 0;
        return size < super.size ? -1 : 1;
    }
}
