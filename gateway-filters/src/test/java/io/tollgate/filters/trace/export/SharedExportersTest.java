package io.tollgate.filters.trace.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Equal settings share one exporter while a configuration holds its handle; once none does, the
 * next acquire (the next configuration) closes it, and asking again makes a new one.
 */
class SharedExportersTest {

    private final AtomicInteger made = new AtomicInteger();
    private final AtomicInteger closed = new AtomicInteger();

    @Test
    void sharesWhileHeldAndClosesOnceReleased() throws Exception {
        SharedExporters<String, AutoCloseable> shared = new SharedExporters<>();
        SharedExporters.Handle<AutoCloseable> first = shared.acquire("a", k -> exporter());
        SharedExporters.Handle<AutoCloseable> again = shared.acquire("a", k -> exporter());
        SharedExporters.Handle<AutoCloseable> other = shared.acquire("b", k -> exporter());
        assertThat(again).isSameAs(first);
        assertThat(other).isNotSameAs(first);
        assertThat(made).hasValue(2);

        first = null;
        again = null;
        long deadline = System.nanoTime() + 10_000_000_000L;
        int released = 0;
        while (released == 0 && System.nanoTime() < deadline) {
            System.gc();
            released = shared.closeReleased();
        }
        assertThat(released).isEqualTo(1);
        assertThat(closed).hasValue(1);
        assertThat(shared.acquire("b", k -> exporter())).isSameAs(other);
        shared.acquire("a", k -> exporter());
        assertThat(made).hasValue(3);
    }

    private AutoCloseable exporter() {
        made.incrementAndGet();
        return closed::incrementAndGet;
    }
}
