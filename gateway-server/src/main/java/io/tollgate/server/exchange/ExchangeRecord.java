package io.tollgate.server.exchange;

import io.netty.handler.codec.http.HttpHeaders;
import io.tollgate.core.accesslog.AccessLogEntry;
import io.tollgate.core.accesslog.AccessLogSink;
import io.tollgate.core.accesslog.AccessLogTap;
import io.tollgate.core.accesslog.HeaderCapture;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.filter.AttemptListener;
import io.tollgate.core.metrics.ClusterMetrics;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.core.metrics.RouteMetrics;
import io.tollgate.protocols.rpc.RpcCodecException;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.router.route.Route;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What is known of one downstream request while it is served, whatever its protocol, turned into
 * its metrics and its access log line exactly once when it ends. Statuses are HTTP statuses, or
 * the HTTP meaning of an RPC status, so that every protocol counts in the same terms.
 *
 * <p>An RPC request that matched a forwarding route also counts in {@code tollgate.rpc.rq} under its
 * service and method; one that did not never makes a series there, so that made-up service names
 * cannot grow the registry.
 *
 * <p>Header values are copied only for the names the access log's format asks for (see
 * {@link HeaderCapture}); with the default format the capture methods return at once.
 */
public final class ExchangeRecord {

    private final ListenerRecords sink;
    private final long startNanos = System.nanoTime();
    private final String protocol;
    private final String method;
    private final String path;
    private final String authority;
    private final String downstreamAddress;
    private final String downstreamPeer;
    private final boolean rpc;
    /** Made by the first flag: most requests end with none. */
    private EnumSet<ResponseFlag> flags;
    private String requestId;
    private long rpcRequestId;
    private boolean hasRpcRequestId;
    private Route route;
    private ClusterMetrics cluster;
    private String clusterName;
    private String upstreamHost;
    private boolean grpc;
    private String[] requestHeaders;
    private String[] responseHeaders;
    private String[] trailers;
    private String traceId;
    private String spanId;
    private long bytesReceived;
    private long bytesSent;
    private boolean finished;
    private FinishListener finishListener;
    private AttemptListener attempts;
    private boolean attemptOpen;
    private int attemptStatus;

    /**
     * @param protocol the downstream protocol as the access log names it, e.g. {@code HTTP/1.1}, {@code BOLT/1}
     * @param method the HTTP method, or the RPC method name; may be null
     * @param path the request target, or {@code /service/method} for RPC; may be null
     * @param authority the Host, or the RPC service; may be null
     * @param downstreamPeer the client certificate's verified identity, or null
     * @param rpc whether the request counts per service and method ({@code method} and {@code authority})
     */
    public ExchangeRecord(ListenerRecords sink, String protocol, String method, String path, String authority,
            String downstreamAddress, String downstreamPeer, boolean rpc) {
        this.sink = sink;
        this.protocol = protocol;
        this.method = method;
        this.path = path;
        this.authority = authority;
        this.downstreamAddress = downstreamAddress;
        this.downstreamPeer = downstreamPeer;
        this.rpc = rpc;
    }

    public void route(Route route) {
        this.route = route;
    }

    public void requestId(String requestId) {
        this.requestId = requestId;
    }

    /** The request's id as the access log writes it, or null when it has none yet. */
    public String requestId() {
        return requestId != null || !hasRpcRequestId ? requestId : Long.toString(rpcRequestId);
    }

    /** Tells {@code listener} (the request's stream filters) when the request finishes. */
    public void whenFinished(FinishListener listener) {
        this.finishListener = listener;
    }

    /** The upstream host the request went to last, or null. */
    public String upstreamHost() {
        return upstreamHost;
    }

    /** An RPC request's id, made text only when the access log writes it. */
    public void requestId(long requestId) {
        this.rpcRequestId = requestId;
        this.hasRpcRequestId = true;
    }

    /** Tells {@code listener} of the request's upstream attempts (the trace filter's child spans). */
    public void attempts(AttemptListener listener) {
        this.attempts = listener;
    }

    /**
     * The attempt now under way goes to {@code host} of {@code target}'s cluster: a new attempt,
     * or the one just started moved off a host known down.
     */
    public void upstream(ExchangeTarget target, String host) {
        this.cluster = target.metrics();
        this.clusterName = target.cluster().name();
        this.upstreamHost = host;
        if (attempts != null && !attemptOpen) {
            attemptOpen = true;
            attemptStatus = 0;
            attempts.attemptStarted();
        }
    }

    /** The attempt under way got its host's answer with {@code status} (the HTTP meaning of an RPC status). */
    public void attemptAnswered(int status) {
        attemptStatus = status;
    }

    /** The attempt under way ended, answered or not. */
    public void attemptEnded() {
        if (attemptOpen) {
            attemptOpen = false;
            attempts.attemptEnded(upstreamHost, attemptStatus);
        }
    }

    /** The request is a gRPC call: the access log reads its service and method from the path. */
    public void grpc() {
        this.grpc = true;
    }

    /** The request's trace and the gateway's span in it, for the access log. */
    public void trace(String traceId, String spanId) {
        this.traceId = traceId;
        this.spanId = spanId;
    }

    /** Copies the request headers the access log writes, if any. */
    public void requestHeaders(HttpHeaders headers) {
        requestHeaders = values(capture().request(), headers);
    }

    /** Copies the Bolt headers or Dubbo attachments the access log writes, if any. */
    public void requestHeaders(RpcFrame frame) {
        requestHeaders = values(capture().request(), frame);
    }

    /** Copies the response headers the access log writes, if any. */
    public void responseHeaders(HttpHeaders headers) {
        responseHeaders = values(capture().response(), headers);
    }

    /** Copies the response's Bolt headers or Dubbo attachments the access log writes, if any. */
    public void responseHeaders(RpcFrame frame) {
        responseHeaders = values(capture().response(), frame);
    }

    /** Copies the response trailers the access log writes, if any. */
    public void trailers(HttpHeaders headers) {
        trailers = values(capture().trailers(), headers);
    }

    /** The meters of the cluster the request went to; null before {@link #upstream}. */
    public ClusterMetrics cluster() {
        return cluster;
    }

    public void flag(ResponseFlag flag) {
        if (flags == null) {
            flags = EnumSet.noneOf(ResponseFlag.class);
        }
        flags.add(flag);
    }

    public void received(long bytes) {
        bytesReceived += bytes;
    }

    public void sent(long bytes) {
        bytesSent += bytes;
    }

    /** Nanoseconds since the request began. */
    public long elapsedNanos() {
        return System.nanoTime() - startNanos;
    }

    private HeaderCapture capture() {
        AccessLogSink accessLog = sink.accessLog();
        return accessLog == null ? HeaderCapture.NONE : accessLog.capture();
    }

    private static String[] values(List<String> names, HttpHeaders headers) {
        if (names.isEmpty()) {
            return null;
        }
        String[] values = new String[names.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = headers.get(names.get(i));
        }
        return values;
    }

    /** The values of {@code names} in the frame; a part of the frame that does not parse is left out. */
    private static String[] values(List<String> names, RpcFrame frame) {
        if (names.isEmpty()) {
            return null;
        }
        String[] values = new String[names.size()];
        try {
            for (int i = 0; i < values.length; i++) {
                values[i] = frame.header(names.get(i));
            }
        } catch (RpcCodecException e) {
            // the part holding them is malformed: the log shows what was read before it
        }
        return values;
    }

    /** Records the request as ended with {@code status} (0: no answer); later calls are ignored. */
    public void finish(int status) {
        if (finished) {
            return;
        }
        finished = true;
        attemptEnded();
        if (finishListener != null) {
            finishListener.finished(status);
        }
        ListenerMetrics listener = sink.listenerMetrics();
        RouteMetrics routeMetrics = route == null ? null : route.meters(listener);
        long elapsedNanos = elapsedNanos();
        listener.request(routeMetrics, status, elapsedNanos);
        if (rpc && route != null && route.kind() == Route.Kind.FORWARD) {
            listener.rpcMethod(authority, method).request(status);
        }
        AccessLogSink accessLog = sink.accessLog();
        AccessLogTap tap = sink.metrics().accessLogTap();
        boolean tapped = tap.open();
        if (accessLog != null || tapped) {
            long startMillis = System.currentTimeMillis() - elapsedNanos / 1_000_000;
            AccessLogEntry entry = new AccessLogEntry(startMillis, sink.listenerName(), protocol, method, path,
                    authority, status, bytesReceived, bytesSent, elapsedNanos / 1000, upstreamHost,
                    route == null ? null : route.name(), requestId(), ResponseFlag.codes(flags == null ? Set.of() : flags), downstreamAddress,
                    downstreamPeer, clusterName, rpc ? authority : null, rpc ? method : null, grpc, requestHeaders,
                    responseHeaders, trailers, traceId, spanId);
            if (accessLog != null) {
                accessLog.log(entry);
            }
            if (tapped) {
                tap.offer(entry);
            }
        }
    }
}
