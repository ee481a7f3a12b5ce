package io.tollgate.filters.trace.export;

import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends spans in batches from a thread of its own, so that the event loops only {@link #offer}:
 * a bounded lock-free multi-producer queue takes each span (or drops it, counted, when full), and
 * the exporter thread drains it into a batch POSTed when the batch is full or the flush interval
 * passed. A failed POST is counted and logged at most once a minute; its spans are lost.
 *
 * @param <T> the span type
 */
public final class BatchExporter<T> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BatchExporter.class);
    private static final long LOG_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final BatchSettings settings;
    private final BatchEncoder<T> encoder;
    private final Queue<T> queue;
    private final Thread thread;
    private final LongAdder dropped = new LongAdder();
    private final LongAdder sent = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean closed;
    private long lastLogged = System.nanoTime() - LOG_EVERY_NANOS;

    /** An exporter whose thread starts with {@link #start()} (a configuration only validated starts none). */
    public BatchExporter(String name, BatchSettings settings, BatchEncoder<T> encoder) {
        this.settings = settings;
        this.encoder = encoder;
        this.queue = PlatformDependent.newFixedMpscQueue(settings.maxQueue());
        this.thread = new Thread(this::run, "tollgate-span-export-" + name);
        thread.setDaemon(true);
    }

    /** Starts the exporter thread, once; called when a filter using it is made, never per request. */
    public void start() {
        if (started.compareAndSet(false, true)) {
            thread.start();
        }
    }

    /** Queues {@code span} without blocking; false (and counted) when the queue is full or the exporter closed. */
    public boolean offer(T span) {
        if (closed || !queue.offer(span)) {
            dropped.increment();
            return false;
        }
        if (queue.size() >= settings.maxBatch()) {
            LockSupport.unpark(thread);
        }
        return true;
    }

    /** Spans dropped because the queue was full. */
    public long dropped() {
        return dropped.sum();
    }

    /** Spans the backend accepted. */
    public long sent() {
        return sent.sum();
    }

    /** Spans lost in a failed request. */
    public long failed() {
        return failed.sum();
    }

    /** Where this exporter sends. */
    public BatchSettings settings() {
        return settings;
    }

    /** Sends what is queued (within one timeout per batch) and stops the thread. */
    @Override
    public void close() {
        closed = true;
        if (!started.get()) {
            return;
        }
        LockSupport.unpark(thread);
        try {
            thread.join(settings.timeout().multipliedBy(2).plus(settings.flushInterval()).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        List<T> batch = new ArrayList<>(settings.maxBatch());
        long interval = settings.flushInterval().toNanos();
        long due = System.nanoTime() + interval;
        while (true) {
            boolean closing = closed;
            long now = System.nanoTime();
            if (closing || now - due >= 0 || queue.size() >= settings.maxBatch()) {
                T span;
                while (batch.size() < settings.maxBatch() && (span = queue.poll()) != null) {
                    batch.add(span);
                }
                boolean full = batch.size() == settings.maxBatch();
                if (!batch.isEmpty()) {
                    post(batch);
                    batch.clear();
                }
                if (!full) {
                    if (closing) {
                        return;
                    }
                    due = System.nanoTime() + interval;
                }
                continue;
            }
            LockSupport.parkNanos(this, due - now);
        }
    }

    private void post(List<T> batch) {
        try {
            byte[] body = encoder.encode(batch);
            HttpURLConnection connection = (HttpURLConnection) settings.endpoint().toURL().openConnection();
            connection.setConnectTimeout((int) settings.timeout().toMillis());
            connection.setReadTimeout((int) settings.timeout().toMillis());
            connection.setRequestMethod("POST");
            connection.setDoOutput(true);
            connection.setFixedLengthStreamingMode(body.length);
            connection.setRequestProperty("Content-Type", settings.contentType());
            try (OutputStream out = connection.getOutputStream()) {
                out.write(body);
            }
            int status = connection.getResponseCode();
            try (InputStream in = status < 400 ? connection.getInputStream() : connection.getErrorStream()) {
                if (in != null) {
                    in.readAllBytes();
                }
            }
            if (status / 100 != 2) {
                throw new IOException("answered " + status);
            }
            sent.add(batch.size());
        } catch (IOException | RuntimeException e) {
            failed.add(batch.size());
            long now = System.nanoTime();
            if (now - lastLogged >= LOG_EVERY_NANOS) {
                lastLogged = now;
                log.warn("could not export {} spans to {} (logged at most once a minute): {}", batch.size(),
                        settings.endpoint(), e.toString());
            }
        }
    }
}
