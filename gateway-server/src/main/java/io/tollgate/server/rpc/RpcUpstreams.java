package io.tollgate.server.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.protocols.rpc.RpcCodec;
import io.tollgate.protocols.rpc.RpcFrame;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.router.cluster.Host;
import io.tollgate.server.exchange.ExchangeRecord;
import io.tollgate.server.exchange.ExchangeTarget;
import io.tollgate.server.exchange.LoopDeadlines;
import io.tollgate.server.filter.FilterRun;
import io.tollgate.server.transport.Transport;
import io.tollgate.server.upstream.ServedHosts;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The multiplexed upstream connections of one RPC protocol in a process, kept per event loop and
 * shared by all the listeners that serve the protocol, so that one loop holds one small set of
 * connections per host whichever listener a request came in on.
 */
public final class RpcUpstreams {

    private final RpcCodec codec;
    private final LoopDeadlines deadlines;
    private final Transport transport;
    private final GatewayMetrics metrics;
    private final Map<EventLoop, RpcLoop> loops = new ConcurrentHashMap<>();

    /** @param codec the protocol spoken upstream, with the limits upstream connections enforce */
    public RpcUpstreams(RpcCodec codec, LoopDeadlines deadlines, Transport transport, GatewayMetrics metrics) {
        this.codec = codec;
        this.deadlines = deadlines;
        this.transport = transport;
        this.metrics = metrics;
    }

    /**
     * Retires, on each loop, the pools of clusters and hosts that {@code clusters} (a new
     * snapshot's) no longer has; may be called from any thread.
     */
    public void retire(ClusterManager clusters) {
        loops.forEach((loop, state) -> loop.execute(() -> state.retire(new ServedHosts(clusters))));
    }

    /**
     * Sends a two-way call the gateway wrote itself ({@code request}, one whole frame of this
     * protocol, ownership passes here) to {@code host} of {@code target}'s cluster, as a call that
     * came in on an RPC listener goes: the loop's multiplexed connections, the route's retries and
     * timeout, the breakers, outlier detection and the cluster's meters. Its answer goes to
     * {@code answer}; MUST be called on {@code eventLoop}, which flushes the frame at once.
     *
     * @param filters the request's stream filters, or null
     * @param timeoutNanos the whole call's timeout
     */
    public GatewayCall call(EventLoop eventLoop, CallAnswer answer, ExchangeRecord record, ExchangeTarget target,
            Host host, ByteBuf request, FilterRun filters, long timeoutNanos) {
        RpcFrame frame;
        try {
            frame = codec.decode(request);
        } finally {
            request.release();
        }
        if (frame == null) {
            throw new IllegalArgumentException("the gateway's " + codec.protocol() + " call is no whole frame");
        }
        RpcLoop state = loop(eventLoop);
        RpcCall call = new RpcCall(new GatewayCallSide(answer), state, record, target, frame, filters);
        call.start(host, timeoutNanos);
        state.flush();
        return new GatewayCall(call);
    }

    /** The state of one event loop, created on first use; MUST be used on that loop only. */
    RpcLoop loop(EventLoop loop) {
        RpcLoop state = loops.get(loop);
        return state != null ? state
                : loops.computeIfAbsent(loop, l -> new RpcLoop(l, codec, deadlines.of(l), transport, metrics));
    }
}
