package sir;

/** A node of {@link AvlTree}; a leaf has height 1. */
public class AvlNode {
    int key;
    int height;
    AvlNode left;
    AvlNode right;
}
