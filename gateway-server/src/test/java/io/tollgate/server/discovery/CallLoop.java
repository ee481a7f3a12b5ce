package io.tollgate.server.discovery;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * An RPC client calling one call after another on its own thread until stopped: it notes when
 * each answering provider first answered, and keeps every failure, so that a test can change the
 * registry under it and assert what changed for callers.
 */
final class CallLoop implements AutoCloseable {

    private static final Duration STOP_LIMIT = Duration.ofSeconds(10);

    private final AtomicBoolean stopped = new AtomicBoolean();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final Map<String, Long> firstAnswerNanos = new ConcurrentHashMap<>();
    private final AtomicLong calls = new AtomicLong();
    private final Thread thread;

    /**
     * Calls {@code call} in a loop; its answer names the provider before a {@code ':'} (as
     * {@code tagged} answers).
     */
    CallLoop(String name, Supplier<String> call) {
        thread = new Thread(() -> {
            while (!stopped.get()) {
                try {
                    String answer = call.get();
                    int colon = answer.indexOf(':');
                    firstAnswerNanos.putIfAbsent(colon < 0 ? answer : answer.substring(0, colon), System.nanoTime());
                } catch (RuntimeException e) {
                    failures.add(calls.get() + ": " + e);
                }
                calls.incrementAndGet();
            }
        }, name);
        thread.start();
    }

    /** When {@code provider} first answered ({@link System#nanoTime()}), or null if it never did. */
    Long firstAnswerNanos(String provider) {
        return firstAnswerNanos.get(provider);
    }

    /** How many calls were made so far. */
    long calls() {
        return calls.get();
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
}
