package io.tollgate.core.accesslog;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An access log that never makes the event loop wait: entries go into a bounded queue that one
 * daemon thread formats and writes, flushing whenever the queue runs dry. When the queue is
 * full the entry is dropped and counted rather than blocking the caller.
 */
final class AsyncAccessLogWriter implements AccessLogSink {

    private static final Logger log = LoggerFactory.getLogger(AsyncAccessLogWriter.class);
    private static final int BATCH = 256;
    private static final long CLOSE_TIMEOUT_SECONDS = 10;

    private final BlockingQueue<AccessLogEntry> queue;
    private final Writer out;
    private final boolean closeStream;
    private final String target;
    private final LineFormat format;
    private final LongAdder dropped = new LongAdder();
    private final Thread thread;
    private volatile boolean closed;
    private boolean failing;

    /**
     * @param stream where lines go; written only by the writer's thread
     * @param closeStream whether {@link #close()} closes the stream (not for stdout)
     * @param target the file name, for thread names and error messages
     * @param format how an entry becomes a line
     */
    AsyncAccessLogWriter(OutputStream stream, boolean closeStream, String target, LineFormat format, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: >= 1)");
        }
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.out = new OutputStreamWriter(stream, StandardCharsets.UTF_8);
        this.closeStream = closeStream;
        this.target = target;
        this.format = format;
        this.thread = new Thread(this::run, "access-log-" + target);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    @Override
    public void log(AccessLogEntry entry) {
        if (closed || !queue.offer(entry)) {
            dropped.increment();
        }
    }

    @Override
    public HeaderCapture capture() {
        return format.capture();
    }

    @Override
    public long dropped() {
        return dropped.sum();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(CLOSE_TIMEOUT_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        List<AccessLogEntry> batch = new ArrayList<>(BATCH);
        StringBuilder line = new StringBuilder(256);
        try {
            while (!closed) {
                batch.add(queue.take());
                queue.drainTo(batch, BATCH - 1);
                write(batch, line);
                if (queue.isEmpty()) {
                    flush();
                }
            }
        } catch (InterruptedException e) {
            // close() wakes the writer this way; what is still queued is written below
        }
        while (queue.drainTo(batch, BATCH) > 0) {
            write(batch, line);
        }
        flush();
        if (closeStream) {
            closeQuietly();
        }
    }

    private void write(List<AccessLogEntry> batch, StringBuilder line) {
        for (AccessLogEntry entry : batch) {
            line.setLength(0);
            format.append(entry, line);
            try {
                out.append(line);
                failing = false;
            } catch (IOException e) {
                failed("write", e);
            }
        }
        batch.clear();
    }

    private void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            failed("flush", e);
        }
    }

    /** Logs the first failure of a run of failures, not every line of it. */
    private void failed(String what, IOException e) {
        if (!failing) {
            log.warn("access log {}: cannot {}, entries are lost until it recovers", target, what, e);
        }
        failing = true;
    }

    private void closeQuietly() {
        try {
            out.close();
        } catch (IOException e) {
            log.warn("access log {}: cannot close", target, e);
        }
    }
}
