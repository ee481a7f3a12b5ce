package io.tollgate.server.rpc;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;

/** Waits for a condition with a bound, instead of sleeping a guessed time. */
final class Conditions {

    private Conditions() {
    }

    /** True as soon as {@code condition} holds, false when it still does not after {@code bound}. */
    static boolean within(Duration bound, BooleanSupplier condition) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(5_000_000);
        }
        return true;
    }
}
