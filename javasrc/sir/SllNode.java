package sir;

/** A node of {@link SinglyLinkedList}. */
public class SllNode {
    int key;
    SllNode next;
}
