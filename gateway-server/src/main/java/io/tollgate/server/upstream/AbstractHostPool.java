package io.tollgate.server.upstream;

import io.netty.channel.EventLoop;
import io.tollgate.core.config.ClusterConfig;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.router.host.Host;
import io.tollgate.server.tls.UpstreamConnector;
import io.tollgate.server.transport.Transport;

/**
 * What the pool of one event loop to one host keeps whatever its protocol (HTTP/1.1, HTTP/2, an RPC
 * protocol's multiplexed connections): its host, its cluster's settings and breakers, the connector
 * that opens its connections, and what it learned of its host's death ({@link HostDownMark}).
 * Confined to its event loop.
 */
public abstract class AbstractHostPool implements HostPool {

    protected final Host host;
    protected final ClusterConfig cluster;
    protected final CircuitBreakers breakers;
    protected final UpstreamConnector connector;
    private final HostDownMark down;

    /** @param breakers the cluster's breakers, in which the pool's connections count */
    protected AbstractHostPool(EventLoop loop, Transport transport, Host host, ClusterConfig cluster,
            CircuitBreakers breakers) {
        this.host = host;
        this.cluster = cluster;
        this.breakers = breakers;
        this.connector = UpstreamConnector.of(transport, loop, host, cluster.connectTimeout(), cluster);
        this.down = new HostDownMark(cluster);
    }

    @Override
    public final Host host() {
        return host;
    }

    @Override
    public final boolean hostDown() {
        return down.isDown();
    }

    /** A connection to the host opened: whatever killed it before, the host is back. */
    public final void hostAlive() {
        down.alive();
    }

    /**
     * Learns that the host died.
     *
     * @return whether the host was alive until now (see {@link HostDownMark#died}); false when the
     *     pool counts it down already, which this only extends
     */
    protected final boolean markDied() {
        return down.died();
    }
}
