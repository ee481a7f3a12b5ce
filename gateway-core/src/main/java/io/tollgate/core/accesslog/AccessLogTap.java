package io.tollgate.core.accesslog;

import io.netty.util.internal.PlatformDependent;
import java.util.Queue;
import java.util.concurrent.atomic.LongAdder;

/**
 * A copy of every finished request for the admin console's live access log, taken only while
 * someone watches. The event loops read one volatile flag per request while it is closed; while
 * it is open they offer each entry to a bounded lock-free queue (dropping and counting what does
 * not fit), and the admin thread drains it. Nothing here blocks or waits for the admin side.
 */
public final class AccessLogTap {

    /** Entries that may wait for the admin thread, which drains them every second. */
    static final int CAPACITY = 4096;

    private final Queue<AccessLogEntry> queue = PlatformDependent.newFixedMpscQueue(CAPACITY);
    private final LongAdder dropped = new LongAdder();
    private volatile boolean open;

    /** Whether entries are wanted: a request that has no access log of its own builds one only then. */
    public boolean open() {
        return open;
    }

    /** Opens or closes the tap; closing it does not empty what was queued. */
    public void open(boolean open) {
        this.open = open;
    }

    /** Hands over one entry without waiting; drops and counts it when the queue is full. */
    public void offer(AccessLogEntry entry) {
        if (!queue.offer(entry)) {
            dropped.increment();
        }
    }

    /** The oldest entry not yet taken, or null; for the single admin thread only. */
    public AccessLogEntry poll() {
        return queue.poll();
    }

    /** Entries dropped because the admin thread had not taken the earlier ones yet. */
    public long dropped() {
        return dropped.sum();
    }
}
