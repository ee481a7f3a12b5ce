package io.tollgate.server.upstream;

import io.netty.channel.EventLoop;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.Host;
import io.tollgate.server.transport.Transport;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The upstream connection pools of one event loop, one per (cluster, host address). Confined to
 * its loop: the hot path finds a pool with a plain map lookup and no lock.
 */
public final class UpstreamPools {

    private record Key(String cluster, InetSocketAddress address) {
    }

    private final EventLoop loop;
    private final Transport transport;
    private final Function<String, PoolEvents> eventsByCluster;
    private final Map<Key, Http1ConnectionPool> pools = new HashMap<>();

    public UpstreamPools(EventLoop loop, Transport transport, Function<String, PoolEvents> eventsByCluster) {
        this.loop = loop;
        this.transport = transport;
        this.eventsByCluster = eventsByCluster;
    }

    /** The pool for a host of a cluster, created on first use. MUST be called on this loop. */
    public Http1ConnectionPool pool(Cluster cluster, Host host) {
        Key key = new Key(cluster.name(), host.address());
        Http1ConnectionPool pool = pools.get(key);
        if (pool == null) {
            pool = new Http1ConnectionPool(loop, transport, host, cluster.config(), eventsByCluster.apply(cluster.name()));
            pools.put(key, pool);
        }
        return pool;
    }
}
