package samples;

import java.util.Comparator;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;

/** Lambdas and method references: each call site is a class of its own whose method runs the target. */
public class Lambdas {
    int bias;

    /** A cell a constructor reference makes. */
    static class Cell {
        int value;

        boolean isEmpty() {
            return value == 0;
        }
    }

    /** A lambda capturing a local, through a generic interface (boxing): x + k > 10 or not; NPE when v is null. */
    static boolean capturing(int k, Integer v) {
        Function<Integer, Integer> f = x -> x + k;
        return f.apply(v) > 10;
    }

    /** A non-capturing lambda with branches in its body: negative, zero, positive. */
    static int sign(int v) {
        IntUnaryOperator f = x -> x < 0 ? -1 : (x == 0 ? 0 : 1);
        return f.applyAsInt(v);
    }

    /** A lambda capturing this: v above the receiver's bias or not. */
    boolean above(int v) {
        IntPredicate p = x -> x > bias;
        return p.test(v);
    }

    /** A static method reference as a Comparator of boxes (unboxed arguments): a below b or not; NPE for a null. */
    static boolean less(Integer a, Integer b) {
        Comparator<Integer> c = Integer::compare;
        return c.compare(a, b) < 0;
    }

    /** A static method reference with a boxed result: the larger of a and b; NPE for a null. */
    static int larger(Integer a, Integer b) {
        BinaryOperator<Integer> op = Math::max;
        return op.apply(a, b);
    }

    /** A constructor reference: a new cell holding v. */
    static Cell fresh(int v) {
        Supplier<Cell> s = Cell::new;
        Cell c = s.get();
        c.value = v;
        return c;
    }

    /** A bound method reference (a virtual target on a captured object): NPE when c is null, else empty or not. */
    static boolean empty(Cell c) {
        Supplier<Boolean> s = c::isEmpty;
        return s.get();
    }

    /** A lambda returned to the caller: the test sees a new non-null object. */
    static IntUnaryOperator adder(int k) {
        return x -> x + k;
    }
}
