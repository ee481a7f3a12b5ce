package io.tollgate.filters.trace.export;

import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
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
 * passed; its {@link BatchSender} sends the batch (an HTTP POST unless given another). A failed
 * request is counted and logged at most once a minute; its spans are lost.
 *
 * @param <T> the span type
 */
public final class BatchExporter<T> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BatchExporter.class);
    private static final long LOG_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final BatchSettings settings;
    private final BatchSender<T> sender;
    private final Queue<T> queue;
    private final Thread thread;
    private final LongAdder dropped = new LongAdder();
    private final LongAdder sent = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean closed;
    private long lastLogged = System.nanoTime() - LOG_EVERY_NANOS;

    /** An exporter POSTing what {@code encoder} makes of each batch; its thread starts with {@link #start()}. */
    public BatchExporter(String name, BatchSettings settings, BatchEncoder<T> encoder) {
        this(name, settings, new HttpBatchSender<>(settings, encoder));
    }

    /**
     * An exporter whose thread starts with {@link #start()} (a configuration only validated starts
     * none) and hands each batch to {@code sender}, which it closes when the thread ends.
     */
    public BatchExporter(String name, BatchSettings settings, BatchSender<T> sender) {
        this.settings = settings;
        this.sender = sender;
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
            sender.close();
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
                        sender.close();
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
            int accepted = sender.send(batch);
            sent.add(accepted);
            failed.add(batch.size() - accepted);
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
