package whole;

/** Its one method does not lower (multianewarray): the class gets no test, and why is listed. */
public class Grid {
    public int[][] square(int n) {
        return new int[n][n];
    }
}
