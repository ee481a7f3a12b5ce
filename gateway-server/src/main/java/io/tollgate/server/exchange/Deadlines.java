package io.tollgate.server.exchange;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The timeouts of one event loop's requests, without a scheduled task per request. Timeouts of
 * the same length expire in the order they started, so each distinct length (rounded up to
 * {@link #GRANULARITY_NANOS}) has one FIFO lane, an intrusive doubly linked list: starting and
 * cancelling are O(1) and allocate nothing. One task on the loop waits for the earliest head of
 * all lanes; cancelling never touches it, so it may wake for a head that is gone and then re-arms
 * for the next one (about once per timeout length under steady traffic).
 *
 * <p>A timeout never expires early; it expires late by at most {@link #GRANULARITY_NANOS} plus the
 * event loop's own delay in running the task, or, once {@link #MAX_EXACT_LANES} lengths are in
 * use, by up to a quarter of its length. Confined to its event loop.
 */
public final class Deadlines implements Runnable {

    /** Timeout lengths are rounded up to this, so that lanes stay few and each stays in order. */
    static final long GRANULARITY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * Lanes kept for exact lengths; past them a new length waits in a coarse lane, at most a
     * quarter later than asked. Lanes are therefore at most this many plus
     * {@value #COARSE_STEPS_PER_DOUBLING} per power of two of nanoseconds (a few hundred in all,
     * a few dozen for timeouts between a millisecond and a minute), whatever lengths clients ask for.
     */
    static final int MAX_EXACT_LANES = 32;
    /** Coarse lengths per doubling; a power of two. */
    static final int COARSE_STEPS_PER_DOUBLING = 4;

    /** Longer timeouts are cut to this (about 36 years), which keeps due times free of overflow. */
    private static final long MAX_LENGTH_NANOS = Long.MAX_VALUE / 8;

    private final EventExecutor loop;
    private final Map<Long, Lane> lanes = new HashMap<>();
    /** The lane used last, which under steady traffic is the one the next start needs. */
    private Lane lastLane;
    private ScheduledFuture<?> task;
    private long taskDueNanos;

    public Deadlines(EventExecutor loop) {
        this.loop = loop;
    }

    /**
     * Starts {@code deadline}: it expires {@code timeoutNanos} from now (0: as soon as the loop
     * runs its tasks) unless cancelled first. It MUST NOT be pending already.
     */
    public void start(Deadline deadline, long timeoutNanos) {
        if (timeoutNanos < 0) {
            throw new IllegalArgumentException("timeoutNanos: " + timeoutNanos + " (expected: >= 0)");
        }
        if (deadline.lane != null) {
            throw new IllegalStateException("deadline already started, due at " + deadline.dueNanos);
        }
        long length = roundUp(timeoutNanos);
        Lane lane = lastLane;
        if (lane == null || lane.lengthNanos != length) {
            lane = laneFor(length);
            lastLane = lane;
            length = lane.lengthNanos;
        }
        deadline.dueNanos = System.nanoTime() + length;
        lane.append(deadline);
        if (task == null || deadline.dueNanos - taskDueNanos < 0) {
            arm(deadline.dueNanos);
        }
    }

    /** Cancels {@code deadline} if it is pending; otherwise does nothing. */
    public void cancel(Deadline deadline) {
        Lane lane = deadline.lane;
        if (lane != null) {
            lane.unlink(deadline);
        }
    }

    /**
     * Expires every deadline due by now, one at a time, so that one expiring may cancel or start
     * others; then waits for the next one.
     */
    @Override
    public void run() {
        task = null;
        long now = System.nanoTime();
        try {
            Deadline due;
            while ((due = firstDue(now)) != null) {
                due.lane.unlink(due);
                due.expired();
            }
        } finally {
            armForEarliest();
        }
    }

    /**
     * The lane of {@code length}: its own while fewer than {@link #MAX_EXACT_LANES} lanes exist,
     * else the coarse lane at or above it, so that clients choosing their own timeouts (gRPC)
     * cannot make every expiry scan more lanes.
     */
    private Lane laneFor(long length) {
        Lane lane = lanes.get(length);
        if (lane != null) {
            return lane;
        }
        long chosen = lanes.size() < MAX_EXACT_LANES ? length : coarse(length);
        return lanes.computeIfAbsent(chosen, Lane::new);
    }

    /**
     * {@code length} rounded up to a grid of {@value #COARSE_STEPS_PER_DOUBLING} steps per
     * doubling of length (at most a quarter longer), which has at most that many lengths per power
     * of two.
     */
    static long coarse(long length) {
        int highestBit = 63 - Long.numberOfLeadingZeros(length);
        long step = 1L << Math.max(0, highestBit - Integer.numberOfTrailingZeros(COARSE_STEPS_PER_DOUBLING));
        return (length + step - 1) / step * step;
    }

    /** How many lanes exist, empty ones not yet dropped included; for tests. */
    int laneCount() {
        return lanes.size();
    }

    /** How many timeouts are pending; for tests. */
    int pendingCount() {
        int count = 0;
        for (Lane lane : lanes.values()) {
            count += lane.size;
        }
        return count;
    }

    /**
     * The earliest head due by {@code now}, or null: when the task ran late, several lanes are due
     * at once, and they expire in due order, not in the order of the lanes' map.
     */
    private Deadline firstDue(long now) {
        Deadline first = null;
        for (Lane lane : lanes.values()) {
            Deadline head = lane.head;
            if (head != null && head.dueNanos - now <= 0 && (first == null || head.dueNanos - first.dueNanos < 0)) {
                first = head;
            }
        }
        return first;
    }

    /** Drops the empty lanes and makes sure the task waits for the earliest head left. */
    private void armForEarliest() {
        long earliest = 0;
        boolean any = false;
        for (Iterator<Lane> it = lanes.values().iterator(); it.hasNext(); ) {
            Lane lane = it.next();
            Deadline head = lane.head;
            if (head == null) {
                it.remove();
                if (lane == lastLane) {
                    lastLane = null;
                }
            } else if (!any || head.dueNanos - earliest < 0) {
                earliest = head.dueNanos;
                any = true;
            }
        }
        if (any && (task == null || earliest - taskDueNanos < 0)) {
            arm(earliest);
        }
    }

    private void arm(long dueNanos) {
        if (task != null) {
            task.cancel(false);
        }
        taskDueNanos = dueNanos;
        task = loop.schedule(this, Math.max(0, dueNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private static long roundUp(long nanos) {
        if (nanos > MAX_LENGTH_NANOS) {
            return MAX_LENGTH_NANOS;
        }
        return (nanos + GRANULARITY_NANOS - 1) / GRANULARITY_NANOS * GRANULARITY_NANOS;
    }

    /** The pending deadlines of one timeout length, oldest first. */
    static final class Lane {

        private final long lengthNanos;
        private Deadline head;
        private Deadline tail;
        private int size;

        private Lane(long lengthNanos) {
            this.lengthNanos = lengthNanos;
        }

        private void append(Deadline deadline) {
            deadline.lane = this;
            deadline.previous = tail;
            deadline.next = null;
            if (tail == null) {
                head = deadline;
            } else {
                tail.next = deadline;
            }
            tail = deadline;
            size++;
        }

        private void unlink(Deadline deadline) {
            Deadline before = deadline.previous;
            Deadline after = deadline.next;
            if (before == null) {
                head = after;
            } else {
                before.next = after;
            }
            if (after == null) {
                tail = before;
            } else {
                after.previous = before;
            }
            deadline.lane = null;
            deadline.previous = null;
            deadline.next = null;
            size--;
        }
    }
}
