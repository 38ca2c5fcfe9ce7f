package samples;

/** POSE paper, Fig. 1 (b): a straight-line sum over three children. */
public class Triple {
    int val;
    Triple c0, c1, c2;

    public int sum() {
        return val + c0.val + c1.val + c2.val;
    }
}
