package io.tollgate.server.testing;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A client sending requests one after another on its own thread until stopped, keeping every
 * failure (a status other than 200, or an exception): tests change configuration under it and
 * assert that nothing failed.
 */
public final class TrafficLoop implements AutoCloseable {

    /** Sends the {@code i}-th request. */
    @FunctionalInterface
    public interface Request {
        HttpResponse<String> send(int i) throws IOException, InterruptedException;
    }

    private static final int MAX_REQUESTS = 100_000;
    private static final Duration STOP_LIMIT = Duration.ofSeconds(10);

    private final AtomicBoolean stopped = new AtomicBoolean();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final Thread thread;

    /** Starts sending on a thread called {@code name}. */
    public TrafficLoop(String name, Request request) {
        thread = new Thread(() -> {
            for (int i = 0; i < MAX_REQUESTS && !stopped.get(); i++) {
                try {
                    HttpResponse<String> response = request.send(i);
                    if (response.statusCode() != 200) {
                        failures.add(i + ": " + response.statusCode() + " " + response.body());
                    }
                } catch (IOException | InterruptedException e) {
                    failures.add(i + ": " + e);
                }
            }
        }, name);
        thread.start();
    }

    /** Stops the client and returns the failures. */
    public List<String> stop() throws InterruptedException {
        stopped.set(true);
        thread.join(STOP_LIMIT.toMillis());
        return List.copyOf(failures);
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
