package subjects;

/** An amount of money made by a factory (no public constructor) whose operations take another amount. */
public final class Money {
    private final int cents;

    private Money(int cents) {
        this.cents = cents;
    }

    /** The amount of `cents`, which may not be negative. */
    public static Money of(int cents) {
        if (cents < 0) {
            throw new IllegalArgumentException("negative amount");
        }
        return new Money(cents);
    }

    public int cents() {
        return cents;
    }

    /** Whether this amount is more than `other`. */
    public boolean exceeds(Money other) {
        return cents > other.cents;
    }
}
