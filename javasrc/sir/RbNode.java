package sir;

/** A node of {@link RedBlackTree}. */
public class RbNode {
    int key;
    boolean red;
    RbNode left;
    RbNode right;
    RbNode parent;
}
