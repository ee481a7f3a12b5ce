package io.tollgate.discovery.dubbo;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks Dubbo providers for their MetadataInfo ({@link MetadataServiceCall}) on the registry client's own thread,
 * never on an event loop or the control thread: each call is bounded by a timeout, a failed one is
 * tried again after a backoff (against the next instance of the same revision, when there is
 * one), and calls and failures are counted for the admin API.
 */
public final class MetadataFetcher {

    private static final Logger log = LoggerFactory.getLogger(MetadataFetcher.class);
    /** Calls made for one revision before giving up until its instances change. */
    public static final int ATTEMPTS = 3;
    /** The wait before the second attempt; doubles for each further one. */
    public static final Duration FIRST_BACKOFF = Duration.ofMillis(500);

    private final Duration timeout;
    private final ScheduledExecutorService executor;
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();

    /**
     * A fetcher whose calls each take at most {@code timeout}, made on {@code executor} (a thread of
     * the registry client's own, which its owner shuts down; calls waiting for their backoff are then dropped).
     */
    public MetadataFetcher(ScheduledExecutorService executor, Duration timeout) {
        this.timeout = timeout;
        this.executor = executor;
    }

    /**
     * Fetches the MetadataInfo of {@code revision} from one of {@code instances} (all serving that
     * revision) in the background; {@code done} gets it, or the last failure, on the fetcher's
     * thread, once.
     */
    public void fetch(String revision, List<DubboInstance> instances, BiConsumer<MetadataInfo, IOException> done) {
        if (instances.isEmpty()) {
            throw new IllegalArgumentException("instances: [] (expected at least one)");
        }
        schedule(() -> attempt(revision, List.copyOf(instances), 0, done), 0, done);
    }

    private void attempt(String revision, List<DubboInstance> instances, int attempt,
            BiConsumer<MetadataInfo, IOException> done) {
        DubboInstance instance = instances.get(attempt % instances.size());
        calls.incrementAndGet();
        MetadataInfo info;
        try {
            info = MetadataServiceCall.call(instance, revision, timeout);
        } catch (IOException e) {
            failures.incrementAndGet();
            log.warn("MetadataService of {} at {}:{}, revision {}: attempt {} of {} failed: {}", instance.application(),
                    instance.address(), instance.port(), revision, attempt + 1, ATTEMPTS, e.toString());
            if (attempt + 1 >= ATTEMPTS) {
                done.accept(null, e);
            } else {
                schedule(() -> attempt(revision, instances, attempt + 1, done),
                        FIRST_BACKOFF.toMillis() << attempt, done);
            }
            return;
        }
        done.accept(info, null);
    }

    private void schedule(Runnable task, long delayMillis, BiConsumer<MetadataInfo, IOException> done) {
        try {
            executor.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            done.accept(null, new IOException("registry client closed", e));
        }
    }

    /** MetadataService calls made (each attempt is one). */
    public long calls() {
        return calls.get();
    }

    /** MetadataService calls that failed. */
    public long failures() {
        return failures.get();
    }
}
