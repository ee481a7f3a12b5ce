package io.tollgate.server.http;

import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.tollgate.core.accesslog.AccessLogSink;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.protocols.http1.PathNormalizer;
import io.tollgate.protocols.http2.Http2Codecs;
import io.tollgate.server.dispatch.ListenerProxy;
import io.tollgate.server.exchange.Deadlines;
import io.tollgate.server.exchange.ListenerRecords;
import io.tollgate.server.exchange.LoopDeadlines;
import io.tollgate.server.overload.OverloadGuard;
import io.tollgate.server.rpccall.HttpRpcCalls;
import io.tollgate.server.snapshot.Snapshot;
import io.tollgate.server.transport.Transport;
import io.tollgate.server.upstream.http.UpstreamPools;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What every HTTP connection and HTTP/2 stream of one listener shares, a {@link ListenerProxy}: on
 * top of the listener's configuration, records and dispatcher, the per-event-loop upstream pools
 * and timeouts, how paths are normalized, the {@code rpc_call} actions' calls; and the maker of
 * their proxy handlers.
 */
public final class HttpProxy extends ListenerProxy {

    private final Transport transport;
    private final Map<EventLoop, UpstreamPools> pools;
    private final LoopDeadlines deadlines;
    private final GatewayMetrics metrics;
    private final String scheme;
    private final HttpRpcCalls rpcCalls;
    /** Null when the listener routes paths as received: a request then pays one field test. */
    private final PathNormalizer paths;

    /**
     * @param accessLog the listener's access log, or null for none
     * @param pools shared between the listeners of a process, so one event loop keeps one set of
     *     upstream connections whichever listener a request came in on
     * @param overload while it says so, new requests are answered 503
     */
    public HttpProxy(ListenerConfig listener, Supplier<Snapshot> snapshot, Transport transport,
            Map<EventLoop, UpstreamPools> pools, LoopDeadlines deadlines, GatewayMetrics metrics, AccessLogSink accessLog,
            OverloadGuard overload) {
        this(listener, snapshot, transport, pools, deadlines, metrics, accessLog, overload, HttpRpcCalls.NONE);
    }

    /**
     * @param accessLog the listener's access log, or null for none
     * @param pools shared between the listeners of a process, so one event loop keeps one set of
     *     upstream connections whichever listener a request came in on
     * @param overload while it says so, new requests are answered 503
     * @param rpcCalls what the routes' {@code rpc_call} actions make of requests, and where the calls go
     */
    public HttpProxy(ListenerConfig listener, Supplier<Snapshot> snapshot, Transport transport,
            Map<EventLoop, UpstreamPools> pools, LoopDeadlines deadlines, GatewayMetrics metrics, AccessLogSink accessLog,
            OverloadGuard overload, HttpRpcCalls rpcCalls) {
        super(listener, ListenerRecords.of(listener.name(), metrics, accessLog), snapshot, overload);
        this.rpcCalls = rpcCalls;
        this.transport = transport;
        this.pools = pools;
        this.deadlines = deadlines;
        this.metrics = metrics;
        this.scheme = listener.tls().isPresent() ? "https" : "http";
        this.paths = PathNormalizer.of(listener.http().paths());
    }

    /** Creates the map to share between listeners. */
    public static Map<EventLoop, UpstreamPools> newPoolMap() {
        return new ConcurrentHashMap<>();
    }

    /** A new handler for one downstream HTTP/1 connection. */
    public ChannelHandler newHandler() {
        return new HttpDownstreamHandler(this);
    }

    /**
     * A new handler for a downstream HTTP/2 connection, its only one: it decodes and encodes the
     * frames and serves every stream of the connection.
     *
     * @param upgraded whether the connection began as HTTP/1.1 (h2c upgrade)
     */
    public Http2ConnectionHandler newHttp2ConnectionHandler(boolean upgraded) {
        return Http2Codecs.server(listenerConfig().http2(),
                (decoder, encoder, settings) -> new Http2DownstreamConnection(decoder, encoder, settings, this, upgraded));
    }

    /** What the routes' {@code rpc_call} actions make of requests. */
    HttpRpcCalls rpcCalls() {
        return rpcCalls;
    }

    /** How this listener normalizes request paths before routing, or null when it does not. */
    PathNormalizer paths() {
        return paths;
    }

    GatewayMetrics metrics() {
        return metrics;
    }

    /** The scheme clients used to reach this listener: {@code https} when it terminates TLS, else {@code http}. */
    String scheme() {
        return scheme;
    }

    /** The request timeouts of {@code loop}'s exchanges. */
    Deadlines deadlines(EventLoop loop) {
        return deadlines.of(loop);
    }

    UpstreamPools pools(EventLoop loop) {
        return pools.computeIfAbsent(loop, l -> new UpstreamPools(l, transport,
                cluster -> new ClusterPoolEvents(metrics.cluster(cluster))));
    }
}
