package io.tollgate.core.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The console's tap: closed until opened, bounded, dropping and counting rather than waiting. */
class AccessLogTapTest {

    private final AccessLogTap tap = new AccessLogTap();

    @Test
    void isClosedUntilOpenedAndKeepsWhatWasQueuedWhenClosed() {
        assertThat(tap.open()).isFalse();
        tap.open(true);
        tap.offer(entry("/a"));
        tap.open(false);
        assertThat(tap.open()).isFalse();
        assertThat(tap.poll().path()).isEqualTo("/a");
        assertThat(tap.poll()).isNull();
    }

    @Test
    void aFullQueueDropsAndCountsInsteadOfWaiting() {
        tap.open(true);
        for (int i = 0; i < AccessLogTap.CAPACITY + 3; i++) {
            tap.offer(entry("/" + i));
        }
        assertThat(tap.dropped()).isEqualTo(3);
        for (int i = 0; i < AccessLogTap.CAPACITY; i++) {
            assertThat(tap.poll().path()).isEqualTo("/" + i);
        }
        assertThat(tap.poll()).isNull();
    }

    @Test
    void entriesOfManyThreadsAreAllTakenByOne() throws Exception {
        tap.open(true);
        int threads = 4;
        int each = 500;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> offering = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String prefix = "/" + t + "/";
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < each; i++) {
                    tap.offer(entry(prefix + i));
                }
            });
            thread.start();
            offering.add(thread);
        }
        start.countDown();
        for (Thread thread : offering) {
            thread.join(10_000);
        }
        int taken = 0;
        while (tap.poll() != null) {
            taken++;
        }
        assertThat(taken).isEqualTo(threads * each);
        assertThat(tap.dropped()).isZero();
    }

    private static AccessLogEntry entry(String path) {
        return new AccessLogEntry(0, "http", "HTTP/1.1", "GET", path, null, 200, 0, 0, 0, null, null, null, "-",
                "127.0.0.1:1", null, null, null, null, false, null, null, null, null, null);
    }
}
