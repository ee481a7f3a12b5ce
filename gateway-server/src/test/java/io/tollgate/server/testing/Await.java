package io.tollgate.server.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a bound, polling, instead of sleeping a fixed time. */
public final class Await {

    private Await() {
    }

    /** Returns once {@code condition} holds; fails the test naming {@code what} after {@code limit}. */
    public static void until(String what, Duration limit, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + limit.toMillis() + " ms: " + what);
            }
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }
}
