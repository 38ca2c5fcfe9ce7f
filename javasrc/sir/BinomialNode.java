package sir;

/** A node of {@link BinomialHeap}: children in decreasing degree through sibling links. */
public class BinomialNode {
    int key;
    int degree;
    BinomialNode parent;
    BinomialNode child;
    BinomialNode sibling;
}
