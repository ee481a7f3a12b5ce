package io.tollgate.filters.localratelimit;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** A nanosecond clock that moves only when a test moves it, safe to read from many threads. */
final class TestClock implements LongSupplier {

    private final AtomicLong now;

    TestClock(long start) {
        this.now = new AtomicLong(start);
    }

    @Override
    public long getAsLong() {
        return now.get();
    }

    /** Sets the reading to {@code nanos}. */
    void set(long nanos) {
        now.set(nanos);
    }
}
