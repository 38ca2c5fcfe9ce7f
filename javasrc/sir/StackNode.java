package sir;

/** A node of {@link Stack}. */
public class StackNode {
    int key;
    StackNode below;
}
