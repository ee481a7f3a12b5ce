package io.tollgate.server.http;

import io.netty.handler.codec.http.HttpRequest;
import io.tollgate.core.accesslog.AccessLogEntry;
import io.tollgate.core.accesslog.AccessLogSink;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.metrics.ClusterMetrics;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.core.metrics.RouteMetrics;
import io.tollgate.router.route.Route;
import java.util.EnumSet;

/**
 * What is known of one downstream request while it is served, turned into its metrics and its
 * access log line exactly once when it ends.
 */
final class RequestRecord {

    private final HttpProxy proxy;
    private final long startNanos = System.nanoTime();
    private final long startMillis = System.currentTimeMillis();
    private final String method;
    private final String uri;
    private final String protocol;
    private final String authority;
    private final String downstreamAddress;
    private final EnumSet<ResponseFlag> flags = EnumSet.noneOf(ResponseFlag.class);
    private String requestId;
    private Route route;
    private ClusterMetrics cluster;
    private String upstreamHost;
    private long bytesReceived;
    private long bytesSent;
    private boolean finished;

    /** @param protocol the downstream protocol as the access log names it, e.g. {@code HTTP/1.1}, {@code HTTP/2.0} */
    RequestRecord(HttpProxy proxy, HttpRequest request, String protocol, String authority, String downstreamAddress) {
        this.proxy = proxy;
        this.method = request.method().name();
        this.uri = request.uri();
        this.protocol = protocol;
        this.authority = authority;
        this.downstreamAddress = downstreamAddress;
    }

    void route(Route route) {
        this.route = route;
    }

    void requestId(String requestId) {
        this.requestId = requestId;
    }

    void upstream(String clusterName, String host) {
        this.cluster = proxy.metrics().cluster(clusterName);
        this.upstreamHost = host;
    }

    ClusterMetrics cluster() {
        return cluster;
    }

    void flag(ResponseFlag flag) {
        flags.add(flag);
    }

    void received(long bytes) {
        bytesReceived += bytes;
    }

    void sent(long bytes) {
        bytesSent += bytes;
    }

    /** Nanoseconds since the request began. */
    long elapsedNanos() {
        return System.nanoTime() - startNanos;
    }

    /** Records the request as ended with {@code status}; later calls are ignored. */
    void finish(int status) {
        if (finished) {
            return;
        }
        finished = true;
        ListenerMetrics listener = proxy.listenerMetrics();
        RouteMetrics routeMetrics = route == null ? null : listener.route(route.name());
        listener.request(routeMetrics, status);
        AccessLogSink accessLog = proxy.accessLog();
        if (accessLog != null) {
            accessLog.log(new AccessLogEntry(startMillis, proxy.listenerConfig().name(), protocol, method, uri,
                    authority, status, bytesReceived, bytesSent, elapsedNanos() / 1000, upstreamHost,
                    route == null ? null : route.name(), requestId, ResponseFlag.codes(flags), downstreamAddress));
        }
    }
}
