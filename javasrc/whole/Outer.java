package whole;

/** A public class with a public nested class (a target of its own), a private one and an anonymous one (neither is). */
public class Outer {
    public static class Inner {
        public int sign(int x) {
            if (x < 0) {
                return -1;
            }
            return x == 0 ? 0 : 1;
        }
    }

    private static class Secret {
        int id(int x) {
            return x;
        }
    }

    public int pick(boolean first) {
        Runnable r = new Runnable() {
            public void run() {}
        };
        r.run();
        return first ? new Secret().id(1) : 2;
    }
}
