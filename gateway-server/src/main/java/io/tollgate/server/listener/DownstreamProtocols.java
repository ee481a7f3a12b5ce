package io.tollgate.server.listener;

import io.netty.channel.EventLoop;
import io.tollgate.core.accesslog.AccessLogSink;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.server.Snapshot;
import io.tollgate.protocols.bolt.BoltCodec;
import io.tollgate.protocols.bolt.BoltCodecOptions;
import io.tollgate.core.config.BoltOptions;
import io.tollgate.server.exchange.ListenerRecords;
import io.tollgate.server.exchange.LoopDeadlines;
import io.tollgate.server.http.HttpProxy;
import io.tollgate.server.rpc.RpcProxy;
import io.tollgate.server.rpc.RpcUpstreams;
import io.tollgate.server.transport.Transport;
import io.tollgate.server.upstream.ServedHosts;
import io.tollgate.server.upstream.UpstreamPools;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The registry of protocols a listener can serve, by the name used in configuration. A new
 * protocol is one more entry here plus its package.
 */
public final class DownstreamProtocols {

    private final Supplier<Snapshot> snapshot;
    private final Transport transport;
    private final GatewayMetrics metrics;
    private final Map<EventLoop, UpstreamPools> pools = HttpProxy.newPoolMap();
    private final LoopDeadlines deadlines = new LoopDeadlines();
    private final RpcUpstreams boltUpstreams;

    public DownstreamProtocols(Supplier<Snapshot> snapshot, Transport transport, GatewayMetrics metrics) {
        this.snapshot = snapshot;
        this.transport = transport;
        this.metrics = metrics;
        this.boltUpstreams = new RpcUpstreams(BoltCodec.DEFAULTS, deadlines, transport, metrics);
    }

    /**
     * After a reload published {@code clusters}, retires on every event loop the upstream pools
     * (HTTP and Bolt) of the clusters and hosts that left; may be called from any thread.
     */
    public void retireUpstreams(ClusterManager clusters) {
        pools.forEach((loop, loopPools) -> loop.execute(() -> loopPools.retire(new ServedHosts(clusters))));
        boltUpstreams.retire(clusters);
    }

    /** The meters of a listener, for the rejections counted before a protocol is known. */
    ListenerMetrics listenerMetrics(ListenerConfig listener) {
        return metrics.listener(listener.name());
    }

    /**
     * The protocols of a listener, in the order they are tried on a new connection.
     *
     * @param accessLog the listener's access log, or null for none
     */
    List<DownstreamProtocol> forListener(ListenerConfig listener, AccessLogSink accessLog) {
        List<DownstreamProtocol> protocols = new ArrayList<>();
        HttpProxy http = new HttpProxy(listener, snapshot, transport, pools, deadlines, metrics, accessLog);
        Http2DownstreamProtocol h2c = listener.protocols().contains("h2c") ? new Http2DownstreamProtocol(http) : null;
        // the Upgrade to h2c is for cleartext only; over TLS a client asks for h2 by ALPN
        boolean upgradeToH2c = h2c != null && listener.tls().isEmpty();
        for (String name : listener.protocols()) {
            if (name.equals("http1")) {
                protocols.add(new Http1DownstreamProtocol(http, upgradeToH2c ? new H2cUpgradeCodecs(h2c) : null));
            } else if (name.equals("h2c")) {
                protocols.add(h2c);
            } else if (name.equals("bolt")) {
                protocols.add(new RpcDownstreamProtocol(bolt(listener, accessLog)));
            } else {
                throw new IllegalArgumentException("listeners." + listener.name() + ".protocols: " + name
                        + " (expected one of [bolt, h2c, http1])");
            }
        }
        return protocols;
    }

    private RpcProxy bolt(ListenerConfig listener, AccessLogSink accessLog) {
        BoltOptions options = listener.bolt();
        BoltCodec codec = new BoltCodec(new BoltCodecOptions(options.maxFrameBytes(), options.maxClassBytes(),
                options.maxHeaderBytes()));
        return new RpcProxy(listener, codec, options.maxFrameBytes(), options.idleTimeout(), snapshot, boltUpstreams,
                ListenerRecords.of(listener.name(), metrics, accessLog));
    }
}
