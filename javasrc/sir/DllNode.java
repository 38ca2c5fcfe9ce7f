package sir;

/** A node of {@link DoublyLinkedList}. */
public class DllNode {
    int key;
    DllNode next;
    DllNode prev;
}
