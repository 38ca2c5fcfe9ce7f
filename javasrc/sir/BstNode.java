package sir;

/** A node of {@link BinarySearchTree}. */
public class BstNode {
    int key;
    BstNode left;
    BstNode right;
}
