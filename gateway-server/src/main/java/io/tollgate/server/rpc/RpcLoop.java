package io.tollgate.server.rpc;

import io.netty.channel.EventLoop;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.protocols.rpc.RpcCodec;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.host.Host;
import io.tollgate.server.exchange.Deadlines;
import io.tollgate.server.transport.Transport;
import io.tollgate.server.upstream.HostPools;
import io.tollgate.server.upstream.ServedHosts;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * What the RPC engine keeps per event loop for one protocol: the multiplexed upstream pools, one
 * per (cluster, host), the loop's timeouts, and the channels written to in the current read batch.
 * Confined to its loop: no locks.
 *
 * <p>Writes made while a read batch lasts go through {@link #write} and leave with the single
 * {@link #flush} at the batch's end (every RPC handler calls it from {@code channelReadComplete});
 * code that writes outside a read batch (a timer, a connect callback, a closed channel) MUST call
 * {@link #flush} itself when done.
 */
final class RpcLoop implements HostPools<RpcHostPool> {

    /** A cluster by object: one rebuilt by a reload under the same name gets new pools. */
    private record PoolKey(Cluster cluster, InetSocketAddress address) {
    }

    private final EventLoop loop;
    private final RpcCodec codec;
    private final Deadlines deadlines;
    private final Transport transport;
    private final GatewayMetrics metrics;
    private final Map<PoolKey, RpcHostPool> pools = new HashMap<>();
    private final List<BatchedChannel> written = new ArrayList<>();

    RpcLoop(EventLoop loop, RpcCodec codec, Deadlines deadlines, Transport transport, GatewayMetrics metrics) {
        this.loop = loop;
        this.codec = codec;
        this.deadlines = deadlines;
        this.transport = transport;
        this.metrics = metrics;
    }

    EventLoop eventLoop() {
        return loop;
    }

    /** The protocol of this loop's upstream connections, with the limits they enforce. */
    RpcCodec codec() {
        return codec;
    }

    /** The timeouts of this loop's calls and attempts. */
    Deadlines deadlines() {
        return deadlines;
    }

    @Override
    public RpcHostPool pool(Cluster cluster, Host host) {
        PoolKey key = new PoolKey(cluster, host.address());
        RpcHostPool pool = pools.get(key);
        if (pool == null) {
            pool = new RpcHostPool(this, transport, host, cluster.config(), metrics.cluster(cluster.name()),
                    cluster.circuitBreakers());
            pools.put(key, pool);
        }
        return pool;
    }

    @Override
    public boolean hostDown(Cluster cluster, Host host) {
        RpcHostPool pool = pools.get(new PoolKey(cluster, host.address()));
        return pool != null && pool.hostDown();
    }

    /** Drains and forgets the pools of clusters and hosts {@code served} no longer serves. */
    void retire(ServedHosts served) {
        Iterator<Map.Entry<PoolKey, RpcHostPool>> it = pools.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<PoolKey, RpcHostPool> entry = it.next();
            if (!served.serves(entry.getKey().cluster(), entry.getValue().host())) {
                entry.getValue().drain();
                it.remove();
            }
        }
    }

    /**
     * Writes {@code msg} (ownership passes) without flushing; dropped when the channel is closed.
     *
     * @return false when it was dropped
     */
    boolean write(BatchedChannel target, Object msg) {
        if (!target.channel().isActive()) {
            ReferenceCountUtil.release(msg);
            return false;
        }
        target.channel().write(msg, target.channel().voidPromise());
        if (target.queue()) {
            written.add(target);
        }
        return true;
    }

    /** Flushes every channel written to since the last flush. */
    void flush() {
        for (int i = 0; i < written.size(); i++) {
            written.get(i).flush();
        }
        written.clear();
    }
}
