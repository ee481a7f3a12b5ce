package io.tollgate.server.bolt;

import io.netty.channel.EventLoop;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.server.transport.Transport;
import io.tollgate.server.upstream.ServedHosts;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The multiplexed Bolt upstream connections of a process, kept per event loop and shared by all
 * its Bolt listeners, so that one loop holds one small set of connections per host whichever
 * listener a request came in on.
 */
public final class BoltUpstreams {

    private final Transport transport;
    private final GatewayMetrics metrics;
    private final Map<EventLoop, BoltLoop> loops = new ConcurrentHashMap<>();

    public BoltUpstreams(Transport transport, GatewayMetrics metrics) {
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

    /** The state of one event loop, created on first use; MUST be used on that loop only. */
    BoltLoop loop(EventLoop loop) {
        BoltLoop state = loops.get(loop);
        return state != null ? state : loops.computeIfAbsent(loop, l -> new BoltLoop(l, transport, metrics));
    }
}
