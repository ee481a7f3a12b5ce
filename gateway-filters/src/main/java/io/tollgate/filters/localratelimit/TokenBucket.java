package io.tollgate.filters.localratelimit;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One token bucket, lock-free: its whole state is one long, changed by compare-and-set, and its
 * refill is computed from the clock, so event loops share it without a lock or a timer thread.
 *
 * <p>The long counts the tokens ever taken, on a scale where the fills so far have made
 * {@code filled + maxTokens} available ({@link BucketShape#filled}). Tokens a full bucket could
 * not hold are dropped by raising the count to at least {@code filled} before taking. A thread
 * whose clock reading predates a fill another thread already used would see too few tokens: before
 * refusing, it reads the clock again, after the count, so a refusal is always right. A token given
 * is one the bucket held at the reading it was taken against; with fixed time, exactly
 * {@code maxTokens} are given however many threads race.
 */
final class TokenBucket {

    private static final VarHandle TAKEN;

    static {
        try {
            TAKEN = MethodHandles.lookup().findVarHandle(TokenBucket.class, "taken", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final BucketShape shape;
    @SuppressWarnings("unused") // changed through TAKEN
    private volatile long taken;

    /** A full bucket at {@code now}. */
    TokenBucket(BucketShape shape, long now) {
        this.shape = shape;
        this.taken = shape.filled(now);
    }

    /** Takes a token if one is there now; false when the bucket is empty. */
    boolean tryTake() {
        long filled = shape.filled(shape.now());
        for (;;) {
            long current = taken;
            long effective = Math.max(current, filled);
            if (effective - filled >= shape.maxTokens()) {
                long again = shape.filled(shape.now());
                if (again == filled) {
                    return false;
                }
                filled = again;
                continue;
            }
            if (TAKEN.compareAndSet(this, current, effective + 1)) {
                return true;
            }
        }
    }

    /** The tokens in the bucket at {@code now}. */
    long available(long now) {
        long filled = shape.filled(now);
        return shape.maxTokens() - (Math.max(taken, filled) - filled);
    }

    /** Whether the bucket is full at {@code now}: then it is no different from a new one. */
    boolean full(long now) {
        return available(now) == shape.maxTokens();
    }
}
