package io.tollgate.server.network.tcpproxy;

import io.netty.channel.ChannelHandler;
import io.tollgate.core.accesslog.AccessLogSink;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.server.snapshot.Snapshot;
import io.tollgate.server.transport.Transport;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TCP proxy of one {@code tcp} listener: what every {@link TcpProxySession} of the listener
 * shares (its settings, the current snapshot's clusters, its meters and access log). Each
 * connection reads the snapshot once, when it picks its upstream host.
 */
public final class TcpProxy {

    private static final Logger log = LoggerFactory.getLogger(TcpProxy.class);

    private final String listener;
    private final TcpProxyConfig config;
    private final Supplier<Snapshot> snapshot;
    private final Transport transport;
    private final GatewayMetrics metrics;
    private final TcpProxyMeters meters;
    private final AccessLogSink accessLog;
    private final boolean splice;

    /**
     * @param config the listener's terminal filter, which MUST be a {@code tcp_proxy}
     * @param accessLog the listener's access log, or null for none
     */
    public TcpProxy(ListenerConfig config, Supplier<Snapshot> snapshot, Transport transport, GatewayMetrics metrics,
            AccessLogSink accessLog) {
        this.listener = config.name();
        this.config = (TcpProxyConfig) config.networkFilters().get(config.networkFilters().size() - 1).config();
        this.snapshot = snapshot;
        this.transport = transport;
        this.metrics = metrics;
        this.meters = new TcpProxyMeters(metrics.registry(), listener, this.config.cluster());
        this.accessLog = accessLog;
        String noSplice = transport != Transport.EPOLL ? "the transport is not native epoll"
                : config.tls().isPresent() ? "the listener terminates TLS"
                : config.networkFilters().stream().anyMatch(f -> !f.config().terminal() && f.config().inspectsBytes())
                        ? "a network filter of the listener reads the bytes" : null;
        this.splice = this.config.splice() && noSplice == null;
        if (this.config.splice() && noSplice != null) {
            log.info("tcp listener {}: splice off ({})", listener, noSplice);
        }
    }

    /** How long a connection may go without a byte either way. */
    public Duration idleTimeout() {
        return config.idleTimeout();
    }

    /** The handler serving one new downstream connection. */
    public ChannelHandler newHandler() {
        return new TcpProxySession(this).downstreamHandler();
    }

    /** Whether connections may move their bytes with splice: asked for, native epoll, and no filter reading them. */
    boolean splice() {
        return splice;
    }

    String listener() {
        return listener;
    }

    String cluster() {
        return config.cluster();
    }

    Snapshot snapshot() {
        return snapshot.get();
    }

    Transport transport() {
        return transport;
    }

    GatewayMetrics metrics() {
        return metrics;
    }

    TcpProxyMeters meters() {
        return meters;
    }

    AccessLogSink accessLog() {
        return accessLog;
    }
}
