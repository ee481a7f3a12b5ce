package io.tollgate.server.listener;

import io.netty.channel.EventLoop;
import io.tollgate.core.accesslog.AccessLogSink;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.ProtocolOptions;
import io.tollgate.core.config.RpcListenerOptions;
import io.tollgate.core.extension.ExtensionRegistry;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.protocols.rpc.RpcProtocol;
import io.tollgate.router.cluster.ClusterManager;
import io.tollgate.server.exchange.ListenerRecords;
import io.tollgate.server.exchange.LoopDeadlines;
import io.tollgate.server.http.HttpProxy;
import io.tollgate.server.network.NetworkFilterChain;
import io.tollgate.server.network.tcpproxy.TcpProxy;
import io.tollgate.server.overload.OverloadGuard;
import io.tollgate.server.rpc.RpcProxy;
import io.tollgate.server.rpc.RpcUpstreams;
import io.tollgate.server.rpc.ServiceClusters;
import io.tollgate.server.rpccall.HttpRpcCalls;
import io.tollgate.server.rpccall.ServiceMethods;
import io.tollgate.server.snapshot.Snapshot;
import io.tollgate.server.transport.Transport;
import io.tollgate.server.upstream.ServedHosts;
import io.tollgate.server.upstream.http.UpstreamPools;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The protocols a listener can serve, by the name used in configuration: HTTP/1.1 and HTTP/2 are
 * built in; every other name is an {@link RpcProtocol} found in the {@link ExtensionRegistry} and
 * served by the one RPC engine, with upstream connections kept per protocol. A new RPC protocol
 * is its package and its registration, nothing here.
 */
public final class DownstreamProtocols {

    private final Supplier<Snapshot> snapshot;
    private final Transport transport;
    private final GatewayMetrics metrics;
    private final ExtensionRegistry extensions;
    private final Map<EventLoop, UpstreamPools> pools = HttpProxy.newPoolMap();
    private final LoopDeadlines deadlines = new LoopDeadlines();
    private final Map<String, RpcUpstreams> rpcUpstreams = new ConcurrentHashMap<>();
    private final OverloadGuard overload;
    private final ServiceClusters serviceClusters;
    private final HttpRpcCalls rpcCalls;

    /** Protocols with no overload protection and no process-wide connection limit. */
    public DownstreamProtocols(Supplier<Snapshot> snapshot, Transport transport, GatewayMetrics metrics) {
        this(snapshot, transport, metrics, ExtensionRegistry.defaults(), OverloadGuard.none());
    }

    /**
     * @param extensions where RPC protocols are found by name
     * @param overload the process's overload state and connection count, read by every listener
     */
    public DownstreamProtocols(Supplier<Snapshot> snapshot, Transport transport, GatewayMetrics metrics,
            ExtensionRegistry extensions, OverloadGuard overload) {
        this(snapshot, transport, metrics, extensions, overload, ServiceClusters.NONE);
    }

    /**
     * @param extensions where RPC protocols are found by name
     * @param overload the process's overload state and connection count, read by every listener
     * @param serviceClusters where RPC calls routed to a per-service template find their service's cluster
     */
    public DownstreamProtocols(Supplier<Snapshot> snapshot, Transport transport, GatewayMetrics metrics,
            ExtensionRegistry extensions, OverloadGuard overload, ServiceClusters serviceClusters) {
        this(snapshot, transport, metrics, extensions, overload, serviceClusters, ServiceMethods.NONE);
    }

    /**
     * @param extensions where RPC protocols are found by name
     * @param overload the process's overload state and connection count, read by every listener
     * @param serviceClusters where RPC calls routed to a per-service template find their service's cluster
     * @param serviceMethods the methods registries published, which type the calls of {@code rpc_call} routes
     */
    public DownstreamProtocols(Supplier<Snapshot> snapshot, Transport transport, GatewayMetrics metrics,
            ExtensionRegistry extensions, OverloadGuard overload, ServiceClusters serviceClusters,
            ServiceMethods serviceMethods) {
        this.rpcCalls = new HttpRpcCalls(serviceMethods, this::rpcUpstreams, serviceClusters);
        this.serviceClusters = serviceClusters;
        this.snapshot = snapshot;
        this.transport = transport;
        this.metrics = metrics;
        this.extensions = extensions;
        this.overload = overload;
    }

    /**
     * After a reload published {@code clusters}, retires on every event loop the upstream pools
     * (HTTP and RPC) of the clusters and hosts that left; may be called from any thread.
     */
    public void retireUpstreams(ClusterManager clusters) {
        pools.forEach((loop, loopPools) -> loop.execute(() -> loopPools.retire(new ServedHosts(clusters))));
        rpcUpstreams.values().forEach(upstreams -> upstreams.retire(clusters));
    }

    /** The process's overload state, which every listener and request reads. */
    OverloadGuard overload() {
        return overload;
    }

    /** The listener's non-terminal network filters, or null when it has none. */
    NetworkFilterChain networkFilters(ListenerConfig listener) {
        return NetworkFilterChain.of(listener, extensions, metrics);
    }

    /** The gateway's meters. */
    GatewayMetrics metrics() {
        return metrics;
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
        HttpProxy http = new HttpProxy(listener, snapshot, transport, pools, deadlines, metrics, accessLog, overload,
                rpcCalls);
        Http2DownstreamProtocol h2c = listener.protocols().contains("h2c") ? new Http2DownstreamProtocol(http) : null;
        // the Upgrade to h2c is for cleartext only; over TLS a client asks for h2 by ALPN
        boolean upgradeToH2c = h2c != null && listener.tls().isEmpty();
        for (String name : listener.protocols()) {
            if (name.equals("http1")) {
                protocols.add(new Http1DownstreamProtocol(http, upgradeToH2c ? new H2cUpgradeCodecs(h2c) : null));
            } else if (name.equals("h2c")) {
                protocols.add(h2c);
            } else if (name.equals(ListenerConfig.TCP)) {
                protocols.add(new TcpDownstreamProtocol(new TcpProxy(listener, snapshot, transport, metrics, accessLog)));
            } else {
                protocols.add(new RpcDownstreamProtocol(rpc(listener, name, accessLog)));
            }
        }
        return protocols;
    }

    private RpcProxy rpc(ListenerConfig listener, String name, AccessLogSink accessLog) {
        RpcProtocol protocol = extensions.find(ProtocolOptions.class, name, RpcProtocol.class)
                .orElseThrow(() -> new IllegalArgumentException("listeners." + listener.name() + ".protocols: " + name
                        + " (expected one of " + extensions.names(ProtocolOptions.class) + ")"));
        ProtocolOptions configured = listener.options(name);
        RpcListenerOptions options = configured == null ? protocol.defaults() : (RpcListenerOptions) configured;
        RpcUpstreams upstreams = rpcUpstreams(name);
        return new RpcProxy(listener, protocol.codec(options), options.maxFrameBytes(), options.idleTimeout(),
                options.firstFrameTimeout(), snapshot, upstreams, ListenerRecords.of(listener.name(), metrics, accessLog), overload,
                serviceClusters);
    }

    /**
     * The process's upstream connections of the RPC protocol {@code name}, made on first use and
     * shared by its listeners and the HTTP listeners' {@code rpc_call} routes; null when no such
     * protocol is registered.
     */
    private RpcUpstreams rpcUpstreams(String name) {
        RpcUpstreams upstreams = rpcUpstreams.get(name);
        if (upstreams != null) {
            return upstreams;
        }
        return extensions.find(ProtocolOptions.class, name, RpcProtocol.class)
                .map(protocol -> rpcUpstreams.computeIfAbsent(name,
                        n -> new RpcUpstreams(protocol.upstreamCodec(), deadlines, transport, metrics)))
                .orElse(null);
    }
}
