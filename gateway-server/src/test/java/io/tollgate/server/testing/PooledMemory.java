package io.tollgate.server.testing;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import java.util.concurrent.TimeUnit;

/** Watches the pooled memory of the gateway's allocator (shared with the test JVM). */
public final class PooledMemory {

    private PooledMemory() {
    }

    /** Samples the allocator's direct and heap memory for {@code millis} and returns the peak. */
    public static long peakFor(long millis) throws InterruptedException {
        var metric = ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT).metric();
        long peak = 0;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < deadline) {
            peak = Math.max(peak, metric.usedDirectMemory() + metric.usedHeapMemory());
            TimeUnit.MILLISECONDS.sleep(10);
        }
        return peak;
    }
}
