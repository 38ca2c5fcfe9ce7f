package subjects;

/** The POSE paper's p1 and p2 (§3.1): reads and writes through possibly-aliased inputs. */
public class Pose {
    int f;

    public static int p1(Pose a0, Pose a1, Pose a2) {
        int v = a0.f + a1.f + a2.f;
        if (a0.f != a1.f) throw new IllegalStateException();
        return v - a1.f - a2.f;
    }

    public static void p2(Pose b0, Pose b1, Pose b2) {
        b2.f = 2;
        b1.f = 1;
        b0.f = 0;
        if (b0.f + b1.f + b2.f == 0) throw new IllegalStateException();
    }
}
