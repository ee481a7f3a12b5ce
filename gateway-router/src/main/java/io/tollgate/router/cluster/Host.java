package io.tollgate.router.cluster;

import io.tollgate.core.config.EndpointConfig;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One upstream host of a cluster. Its identity (address, weight, labels) is immutable; its
 * health and load are live counters shared by every event loop.
 */
public final class Host {

    private final InetSocketAddress address;
    private final int weight;
    private final Map<String, String> labels;
    private final String id;
    private final AtomicInteger activeRequests = new AtomicInteger();
    private volatile boolean healthy = true;
    private volatile boolean ejected;

    public Host(EndpointConfig endpoint) {
        this.address = new InetSocketAddress(endpoint.address(), endpoint.port());
        this.weight = endpoint.weight();
        this.labels = endpoint.labels();
        this.id = endpoint.address() + ":" + endpoint.port();
    }

    /** The resolved socket address to connect to. */
    public InetSocketAddress address() {
        return address;
    }

    /** {@code address:port} as configured; used in logs, metrics and the admin API. */
    public String id() {
        return id;
    }

    public int weight() {
        return weight;
    }

    public Map<String, String> labels() {
        return labels;
    }

    /** Whether active health checking (or an operator) considers the host healthy. */
    public boolean healthy() {
        return healthy;
    }

    public void healthy(boolean healthy) {
        this.healthy = healthy;
    }

    /** Whether outlier detection has taken the host out of rotation for now. */
    public boolean ejected() {
        return ejected;
    }

    public void ejected(boolean ejected) {
        this.ejected = ejected;
    }

    /** Whether the host may take requests: healthy and not ejected. */
    public boolean available() {
        return healthy && !ejected;
    }

    /** Requests sent to this host and not yet answered, across all event loops. */
    public int activeRequests() {
        return activeRequests.get();
    }

    /** Counts a request sent; MUST be paired with exactly one {@link #requestFinished()}. */
    public void requestStarted() {
        activeRequests.incrementAndGet();
    }

    public void requestFinished() {
        activeRequests.decrementAndGet();
    }

    @Override
    public String toString() {
        return id;
    }
}
