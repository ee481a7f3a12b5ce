package io.tollgate.server.testing;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** Watches the pooled memory of the gateway's allocator (shared with the test JVM). */
public final class PooledMemory {

    private PooledMemory() {
    }

    /**
     * Samples the allocator's direct and heap memory for {@code millis} and returns the peak above
     * what it held when sampling began: what earlier tests in this JVM left in the allocator's
     * chunks (which depends on the classes that ran before, an order that changes as tests move)
     * is not the gateway's.
     */
    public static long growthFor(long millis) throws InterruptedException {
        long before = used();
        long peak = before;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < deadline) {
            peak = Math.max(peak, used());
            TimeUnit.MILLISECONDS.sleep(10);
        }
        return peak - before;
    }

    /** Starts sampling the allocator's memory every 5 ms on a thread of its own, until the sampler is closed. */
    public static Sampler sample() {
        return new Sampler();
    }

    private static long used() {
        ByteBufAllocatorMetric metric = ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT).metric();
        return metric.usedDirectMemory() + metric.usedHeapMemory();
    }

    /** Memory sampled in the background: the most the allocator held beyond what it held at the start. */
    public static final class Sampler implements AutoCloseable {

        private final long before = used();
        private final AtomicLong peak = new AtomicLong(before);
        private final AtomicBoolean sampling = new AtomicBoolean(true);
        private final Thread thread;

        private Sampler() {
            thread = new Thread(() -> {
                while (sampling.get()) {
                    peak.accumulateAndGet(used(), Math::max);
                    try {
                        TimeUnit.MILLISECONDS.sleep(5);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "pooled-memory-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        /** The peak so far less the memory held when sampling began. */
        public long growth() {
            return peak.get() - before;
        }

        @Override
        public void close() throws InterruptedException {
            sampling.set(false);
            thread.join();
        }
    }
}
