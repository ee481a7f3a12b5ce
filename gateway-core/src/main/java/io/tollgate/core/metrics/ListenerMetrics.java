package io.tollgate.core.metrics;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The downstream meters of one listener. Thread-safe: every event loop of the listener counts
 * into the same instance.
 */
public final class ListenerMetrics {

    /**
     * The most (service, method) pairs counted apart per listener; requests of further pairs count
     * under {@link #RPC_OTHER} for both tags, so that clients sending made-up names cannot grow the
     * registry without bound.
     */
    public static final int MAX_RPC_METHODS = 1000;
    /** The service and method tag of requests past {@link #MAX_RPC_METHODS}. */
    public static final String RPC_OTHER = "_other";
    /** The service or method tag of a request that named none. */
    public static final String RPC_NONE = "-";

    private final MeterRegistry registry;
    private final ConnectionErrorMeters connectionErrors;
    private final Tags tags;
    private final ConnectionMeters connections;
    private final StatusClassCounters requests;
    private final ConcurrentMap<String, RouteMetrics> routes = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> errors = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Counter> rejections = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, ConcurrentMap<String, RpcMethodMetrics>> rpcMethods = new ConcurrentHashMap<>();
    private final AtomicInteger rpcMethodCount = new AtomicInteger();
    private final RpcMethodMetrics rpcOther;

    ListenerMetrics(MeterRegistry registry, String listenerName, ConnectionErrorMeters connectionErrors) {
        this.registry = registry;
        this.connectionErrors = connectionErrors;
        this.tags = Tags.of(MetricNames.TAG_LISTENER, listenerName);
        this.connections = new ConnectionMeters(
                registry, MetricNames.DOWNSTREAM_CX_ACTIVE, MetricNames.DOWNSTREAM_CX_TOTAL, tags);
        this.requests = new StatusClassCounters(registry, MetricNames.DOWNSTREAM_RQ, tags);
        this.rpcOther = new RpcMethodMetrics(registry, rpcTags(RPC_OTHER, RPC_OTHER));
    }

    /** Counts an accepted connection; MUST be paired with exactly one {@link #connectionClosed()}. */
    public void connectionOpened() {
        connections.opened();
    }

    public void connectionClosed() {
        connections.closed();
    }

    /** Counts a connection that closed on its own terms during a drain. */
    public void drainClosed() {
        Counter.builder(MetricNames.DOWNSTREAM_CX_DRAIN_CLOSE).tags(tags).register(registry).increment();
    }

    /** Counts {@code connections} a drain closed at its timeout, their work unfinished. */
    public void drainTimedOut(int connections) {
        Counter.builder(MetricNames.DOWNSTREAM_CX_DRAIN_TIMEOUT).tags(tags).register(registry).increment(connections);
    }

    /**
     * Counts a connection the gateway closed before or instead of serving it, by reason, e.g.
     * {@code max_connections} or {@code detection_timeout}. Reasons MUST come from a small fixed set.
     */
    public void connectionRejected(String reason) {
        requireNonNull(reason, "reason");
        Counter counter = rejections.get(reason);
        if (counter == null) {
            counter = rejections.computeIfAbsent(reason, r ->
                    registry.counter(MetricNames.DOWNSTREAM_CX_REJECTED, tags.and(MetricNames.TAG_REASON, r)));
        }
        counter.increment();
    }

    /** Returns the meters of a route of this listener, the same instance for the same name. */
    public RouteMetrics route(String routeName) {
        requireNonNull(routeName, "routeName");
        RouteMetrics route = routes.get(routeName);
        if (route != null) {
            return route;
        }
        return routes.computeIfAbsent(routeName,
                name -> new RouteMetrics(registry, tags.and(MetricNames.TAG_ROUTE, name)));
    }

    /**
     * Returns the meters of an RPC method of this listener, the same instance for the same pair, or
     * the shared {@link #RPC_OTHER} meters once {@link #MAX_RPC_METHODS} pairs exist. Callers SHOULD
     * ask only for requests that matched a route, so that unknown services never make a pair.
     *
     * @param service the service name, or null for none
     * @param method the method name, or null for none
     */
    public RpcMethodMetrics rpcMethod(String service, String method) {
        String serviceTag = service == null ? RPC_NONE : service;
        String methodTag = method == null ? RPC_NONE : method;
        ConcurrentMap<String, RpcMethodMetrics> methods = rpcMethods.get(serviceTag);
        RpcMethodMetrics found = methods == null ? null : methods.get(methodTag);
        if (found != null) {
            return found;
        }
        if (rpcMethodCount.get() >= MAX_RPC_METHODS) {
            return rpcOther;
        }
        return rpcMethods.computeIfAbsent(serviceTag, s -> new ConcurrentHashMap<>())
                .computeIfAbsent(methodTag, m -> {
                    rpcMethodCount.incrementAndGet();
                    return new RpcMethodMetrics(registry, rpcTags(serviceTag, m));
                });
    }

    /**
     * Counts an answered request by its status class, on the listener and, when the request
     * matched one, on its route with the time it took.
     *
     * @param routeOrNull the matched route's handle, or null when no route matched
     * @param elapsedNanos how long the request took, from its first byte to its end
     */
    public void request(RouteMetrics routeOrNull, int status, long elapsedNanos) {
        requests.count(status);
        if (routeOrNull != null) {
            routeOrNull.request(status, elapsedNanos);
        }
    }

    /**
     * Counts a failed downstream request by reason, e.g. {@code bad_request},
     * {@code header_too_large}, {@code body_too_large}, {@code no_route}, {@code smuggling}.
     * Reasons MUST come from a small fixed set: each one is a time series.
     */
    public void error(String reason) {
        requireNonNull(reason, "reason");
        Counter counter = errors.get(reason);
        if (counter == null) {
            counter = errors.computeIfAbsent(reason, r ->
                    registry.counter(MetricNames.DOWNSTREAM_RQ_ERROR, tags.and(MetricNames.TAG_REASON, r)));
        }
        counter.increment();
    }

    private Tags rpcTags(String service, String method) {
        return tags.and(MetricNames.TAG_SERVICE, service).and(MetricNames.TAG_METHOD, method);
    }

    /** The process's counters of errors that ended connections. */
    public ConnectionErrorMeters connectionErrors() {
        return connectionErrors;
    }
}
