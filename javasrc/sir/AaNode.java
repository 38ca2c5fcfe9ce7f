package sir;

/** A node of {@link AATree}; the tree's sentinel has level 0 and points to itself. */
public class AaNode {
    int key;
    int level;
    AaNode left;
    AaNode right;
}
