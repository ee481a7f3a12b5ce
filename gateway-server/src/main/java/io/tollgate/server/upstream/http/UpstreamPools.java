package io.tollgate.server.upstream.http;

import io.netty.channel.EventLoop;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.host.Host;
import io.tollgate.server.transport.Transport;
import io.tollgate.server.upstream.HostPools;
import io.tollgate.server.upstream.ServedHosts;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;

/**
 * The upstream connection pools of one event loop, one per (cluster, host address), HTTP/1.1 or
 * HTTP/2 as the cluster says. Confined to
 * its loop: the hot path finds a pool with a plain map lookup and no lock.
 */
public final class UpstreamPools implements HostPools<UpstreamPool> {

    /** A cluster by object: one rebuilt by a reload under the same name gets new pools. */
    private record Key(Cluster cluster, InetSocketAddress address) {
    }

    private final EventLoop loop;
    private final Transport transport;
    private final Function<String, PoolEvents> eventsByCluster;
    private final Map<Key, UpstreamPool> pools = new HashMap<>();

    public UpstreamPools(EventLoop loop, Transport transport, Function<String, PoolEvents> eventsByCluster) {
        this.loop = loop;
        this.transport = transport;
        this.eventsByCluster = eventsByCluster;
    }

    /**
     * The pool for a host of a cluster, created on first use, speaking the cluster's upstream
     * protocol. MUST be called on this loop.
     */
    @Override
    public UpstreamPool pool(Cluster cluster, Host host) {
        Key key = new Key(cluster, host.address());
        UpstreamPool pool = pools.get(key);
        if (pool == null) {
            pool = newPool(cluster, host);
            pools.put(key, pool);
        }
        return pool;
    }

    @Override
    public boolean hostDown(Cluster cluster, Host host) {
        UpstreamPool pool = pools.get(new Key(cluster, host.address()));
        return pool != null && pool.hostDown();
    }

    /**
     * Drains and forgets the pools of clusters and hosts that {@code served} no longer serves:
     * idle connections close now, busy ones when their exchange ends. MUST be called on this loop.
     */
    public void retire(ServedHosts served) {
        Iterator<Map.Entry<Key, UpstreamPool>> it = pools.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Key, UpstreamPool> entry = it.next();
            if (!served.serves(entry.getKey().cluster(), entry.getValue().host())) {
                entry.getValue().drain();
                it.remove();
            }
        }
    }

    private UpstreamPool newPool(Cluster cluster, Host host) {
        ClusterConfig config = cluster.config();
        PoolEvents events = eventsByCluster.apply(cluster.name());
        if (ClusterConfig.H2.equals(config.protocol())) {
            return new Http2ConnectionPool(loop, transport, host, config, cluster.circuitBreakers(), events);
        }
        return new Http1ConnectionPool(loop, transport, host, config, cluster.circuitBreakers(), events);
    }
}
