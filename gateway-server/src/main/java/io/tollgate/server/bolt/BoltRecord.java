package io.tollgate.server.bolt;

import io.tollgate.core.accesslog.AccessLogEntry;
import io.tollgate.core.accesslog.AccessLogSink;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.router.route.Route;
import java.util.EnumSet;

/**
 * What is known of one downstream Bolt request while it is served, turned into its metrics and
 * access log line exactly once when it ends. Statuses are the HTTP meaning of the Bolt status
 * ({@link io.tollgate.protocols.bolt.BoltStatus#httpStatus()}), so Bolt counts like HTTP.
 *
 * <p>In the access log: protocol {@code BOLT/1} or {@code BOLT/2}, method the
 * {@code sofa_head_method_name} header, authority the {@code service} header, path
 * {@code /service/method}, request id the caller's Bolt request id.
 *
 * <p>A request that matched a forwarding route also counts in {@code tollgate.rpc.rq} under its
 * service and method; one that did not never makes a series there, so that made-up service names
 * cannot grow the registry.
 */
final class BoltRecord {

    private final BoltProxy proxy;
    private final long startNanos = System.nanoTime();
    private final long startMillis = System.currentTimeMillis();
    private final String protocol;
    private final String service;
    private final String method;
    private final String requestId;
    private final String downstreamAddress;
    private final long bytesReceived;
    private final EnumSet<ResponseFlag> flags = EnumSet.noneOf(ResponseFlag.class);
    private Route route;
    private String upstreamHost;
    private long bytesSent;
    private boolean finished;

    /**
     * @param service the {@code service} header, or null
     * @param method the method name header, or null
     */
    BoltRecord(BoltProxy proxy, int protocolCode, String service, String method, int requestId, long bytesReceived,
            String downstreamAddress) {
        this.proxy = proxy;
        this.protocol = "BOLT/" + protocolCode;
        this.service = service;
        this.method = method;
        this.requestId = Integer.toString(requestId);
        this.bytesReceived = bytesReceived;
        this.downstreamAddress = downstreamAddress;
    }

    void route(Route route) {
        this.route = route;
    }

    void upstreamHost(String host) {
        this.upstreamHost = host;
    }

    void flag(ResponseFlag flag) {
        flags.add(flag);
    }

    void sent(long bytes) {
        bytesSent += bytes;
    }

    long elapsedNanos() {
        return System.nanoTime() - startNanos;
    }

    /** Records the request as ended with the HTTP meaning {@code status}; later calls are ignored. */
    void finish(int status) {
        if (finished) {
            return;
        }
        finished = true;
        ListenerMetrics listener = proxy.listenerMetrics();
        listener.request(route == null ? null : listener.route(route.name()), status);
        if (route != null && route.kind() == Route.Kind.FORWARD) {
            listener.rpcMethod(service, method).request(status);
        }
        AccessLogSink accessLog = proxy.accessLog();
        if (accessLog != null) {
            String path = service == null ? null : "/" + service + "/" + (method == null ? "" : method);
            accessLog.log(new AccessLogEntry(startMillis, proxy.listenerName(), protocol, method, path, service,
                    status, bytesReceived, bytesSent, elapsedNanos() / 1000, upstreamHost,
                    route == null ? null : route.name(), requestId, ResponseFlag.codes(flags), downstreamAddress));
        }
    }
}
