package subjects;

/** The superclass of {@link Shadow}, whose field of the same name hides this one. */
public class ShadowBase {
    int size;
}
