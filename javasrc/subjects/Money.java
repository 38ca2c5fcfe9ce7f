package subjects;

import java.util.Objects;

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

    /** This amount less `other`, which may not be more (the message is made by String.format). */
    public Money minus(Money other) {
        Objects.requireNonNull(other, () -> "no amount to take away");
        if (other.cents > cents) {
            throw new IllegalArgumentException(String.format("%d is more than %d", other.cents, cents));
        }
        return new Money(cents - other.cents);
    }

    /** Equal to another Money of as many cents: classes compared by getClass(), as IDEs write it. */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o == null || getClass() != o.getClass()) {
            return false;
        }
        return cents == ((Money) o).cents;
    }

    @Override
    public int hashCode() {
        return cents;
    }
}
