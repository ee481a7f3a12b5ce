package io.tollgate.server.upgrade;

import io.tollgate.server.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client calling one call after another, a short pause apart, on its own thread until stopped, keeping every failure
 * (an exception, or a call that returned false): hot restart tests run several under restarts and
 * assert that none failed. It counts its successes, so a test can wait for traffic to flow.
 */
final class ClientLoop implements AutoCloseable {

    /** One call; false or an exception is a failure. */
    @FunctionalInterface
    interface Call {
        boolean call(long i) throws Exception;
    }

    private static final Duration STOP_LIMIT = Duration.ofSeconds(10);
    /** Leaves the processes under test some CPU on a small machine, where the clients would take it all. */
    private static final long PAUSE_MILLIS = 10;

    private final String name;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final AtomicLong succeeded = new AtomicLong();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final Thread thread;

    ClientLoop(String name, Call call) {
        this.name = name;
        thread = new Thread(() -> {
            for (long i = 0; !stopped.get(); i++) {
                try {
                    if (call.call(i)) {
                        succeeded.incrementAndGet();
                    } else {
                        failures.add(name + " call " + i + " answered wrongly");
                    }
                    Thread.sleep(PAUSE_MILLIS);
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    failures.add(name + " call " + i + ": " + e);
                }
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    long succeeded() {
        return succeeded.get();
    }

    /** Waits until each of {@code loops} made {@code calls} more successful calls, 15 s at most each. */
    static void awaitEach(int calls, List<ClientLoop> loops) throws InterruptedException {
        for (ClientLoop loop : loops) {
            long target = loop.succeeded() + calls;
            Await.until(loop + " to reach " + target, Duration.ofSeconds(15), () -> loop.succeeded() >= target);
        }
    }

    /** Stops calling and returns the failures. */
    List<String> stop() throws InterruptedException {
        stopped.set(true);
        thread.join(STOP_LIMIT.toMillis());
        return List.copyOf(failures);
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    @Override
    public String toString() {
        return name + ": " + succeeded.get() + " calls";
    }
}
