package io.tollgate.router.host;

import java.util.concurrent.atomic.LongAdder;

/**
 * What one host served, for the admin API and the console: the requests it finished (answered or
 * failed), those of them that were errors, and the connections open to it. Event loops count into
 * striped adders (an uncontended increment, no lock, no allocation once a loop has its cell); the
 * admin thread sums them when it samples. A host keeps its meters across weight and label changes.
 */
public final class HostMeters {

    private final LongAdder requests = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder connections = new LongAdder();

    /** Counts a request the host answered with {@code status}: an error from 500 on, as the cluster's 5xx. */
    public void responded(int status) {
        requests.increment();
        if (status >= 500) {
            errors.increment();
        }
    }

    /** Counts a request that failed without a complete answer (connect failure, reset, timeout): an error. */
    public void failed() {
        requests.increment();
        errors.increment();
    }

    /** Counts a connection opened to the host; MUST be paired with exactly one {@link #connectionClosed()}. */
    public void connectionOpened() {
        connections.increment();
    }

    public void connectionClosed() {
        connections.decrement();
    }

    /** The requests finished since the host was added. */
    public long requests() {
        return requests.sum();
    }

    /** Of {@link #requests()}, those answered 5xx or failed without an answer. */
    public long errors() {
        return errors.sum();
    }

    /** The connections open to the host now, from every event loop. */
    public long connections() {
        return connections.sum();
    }
}
