package io.tollgate.server.rpc;

import io.tollgate.core.config.ClusterConfig;
import io.tollgate.core.metrics.ClusterMetrics;
import io.tollgate.protocols.rpc.RpcCodec;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.router.host.Host;
import io.tollgate.server.transport.Transport;
import io.tollgate.server.upstream.AbstractHostPool;
import io.tollgate.server.upstream.HostDownMark;
import java.util.ArrayList;
import java.util.List;

/**
 * The multiplexed RPC connections of one event loop to one upstream host: at most
 * {@link ClusterConfig#connectionsPerHost()} of them, opened on demand and used in turn, each
 * carrying any number of requests at once. Every connection counts, from its connect to its close,
 * in the connections of the cluster's circuit breakers (default priority): past
 * {@code max_connections} no further one opens and requests share those open, unless the pool has
 * none. A connect failure or a reset of a connection tells the pool its host died: its connections
 * without calls close, and the host counts as down as its {@link HostDownMark} says, so that new
 * calls go to other hosts meanwhile; calls on other connections are untouched. Confined to its
 * event loop.
 */
final class RpcHostPool extends AbstractHostPool {

    private final RpcLoop loop;
    private final ClusterMetrics metrics;
    private final List<RpcUpstreamConnection> connections = new ArrayList<>();
    private int next;

    /** @param breakers the cluster's breakers that connections and waiting requests count in */
    RpcHostPool(RpcLoop loop, Transport transport, Host host, ClusterConfig cluster, ClusterMetrics metrics,
            CircuitBreakers breakers) {
        super(loop.eventLoop(), transport, host, cluster, breakers);
        this.loop = loop;
        this.metrics = metrics;
    }

    /** Learns that the host died: counted once, its connections without calls closed. */
    void hostDied() {
        if (markDied()) {
            metrics.hostDown();
        }
        for (RpcUpstreamConnection connection : List.copyOf(connections)) {
            connection.closeIfIdle();
        }
    }

    ClusterConfig cluster() {
        return cluster;
    }

    ClusterMetrics metrics() {
        return metrics;
    }

    CircuitBreakers breakers() {
        return breakers;
    }

    RpcLoop loop() {
        return loop;
    }

    /** The protocol spoken on the pool's connections. */
    RpcCodec codec() {
        return loop.codec();
    }

    /**
     * The connection for the next request: a new one while fewer than the limits allow are open,
     * else the next in turn.
     */
    RpcUpstreamConnection connection() {
        if (connections.size() < cluster.connectionsPerHost()) {
            if (breakers.tryOpenConnection(connections.isEmpty())) {
                RpcUpstreamConnection connection = RpcUpstreamConnection.open(this, connector);
                connections.add(connection);
                return connection;
            }
            metrics.connectionOverflow();
        }
        next = (next + 1) % connections.size();
        return connections.get(next);
    }

    /** Retires the pool after a reload took its host or cluster away: each connection closes once its calls end. */
    @Override
    public void drain() {
        for (RpcUpstreamConnection connection : List.copyOf(connections)) {
            connection.closeWhenIdle();
        }
    }

    /** Called once by a connection that closed or failed to connect; the next request opens a new one. */
    void removed(RpcUpstreamConnection connection) {
        connections.remove(connection);
        breakers.connectionClosed();
    }
}
