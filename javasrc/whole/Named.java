package whole;

/** An interface: left out. */
public interface Named {
    String name();
}
