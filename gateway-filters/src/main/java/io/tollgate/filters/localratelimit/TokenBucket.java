package io.tollgate.filters.localratelimit;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One token bucket, lock-free: its whole state is one long, changed by compare-and-set, and its
 * refill is computed from the clock, so event loops share it without a lock or a timer thread.
 *
 * <p>The long counts the tokens ever taken, on a scale where the fills so far have made
 * {@code fills * tokensPerFill + maxTokens} available. Tokens a full bucket could not hold are
 * dropped by raising the count to at least {@code fills * tokensPerFill} before taking. A thread
 * that read the clock just before a fill another thread already used sees one fill fewer: it may
 * refuse where a later reading would allow, never the reverse, so no more than the configured
 * tokens are ever given.
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
        this.taken = shape.fills(now) * shape.tokensPerFill();
    }

    /** Takes a token if one is there at {@code now} ({@link System#nanoTime()}); false when the bucket is empty. */
    boolean tryTake(long now) {
        long floor = shape.fills(now) * shape.tokensPerFill();
        for (;;) {
            long current = taken;
            long effective = Math.max(current, floor);
            if (effective - floor >= shape.maxTokens()) {
                return false;
            }
            if (TAKEN.compareAndSet(this, current, effective + 1)) {
                return true;
            }
        }
    }

    /** The tokens in the bucket at {@code now}. */
    long available(long now) {
        long floor = shape.fills(now) * shape.tokensPerFill();
        return shape.maxTokens() - (Math.max(taken, floor) - floor);
    }

    /** Whether the bucket is full at {@code now}: then it is no different from a new one. */
    boolean full(long now) {
        return available(now) == shape.maxTokens();
    }
}
