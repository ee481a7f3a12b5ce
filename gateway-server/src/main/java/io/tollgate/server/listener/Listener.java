package io.tollgate.server.listener;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.EpollChannelOption;
import io.tollgate.core.accesslog.AccessLogSink;
import io.tollgate.core.accesslog.AccessLogs;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.TlsConfig;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.server.network.NetworkFilterChain;
import io.tollgate.server.tls.ListenerTls;
import io.tollgate.server.transport.Transport;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One bound downstream socket. A connection is handed to its protocol directly when the listener
 * serves one protocol, or after {@link ProtocolDetectionHandler} looked at its first bytes; on a
 * TLS listener, once the handshake is done, by the ALPN name agreed on (see {@link TlsProtocolSelector}).
 * Every new connection first passes the listener's {@link ConnectionGate}, then its network
 * filters ({@link NetworkFilterChain}, when it has any).
 */
public final class Listener implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Listener.class);

    private final ListenerConfig config;
    private final Channel channel;
    private final AccessLogSink accessLog;
    private final ListenerTls tls;

    private Listener(ListenerConfig config, Channel channel, AccessLogSink accessLog, ListenerTls tls) {
        this.config = config;
        this.channel = channel;
        this.accessLog = accessLog;
        this.tls = tls;
    }

    /** Binds the listener's socket; fails when the address cannot be bound or its certificate cannot be used. */
    public static Listener bind(ListenerConfig config, EventLoopGroup group, Transport transport,
            DownstreamProtocols registry) throws InterruptedException {
        ListenerTls tls = config.tls().map(t -> ListenerTls.start(config.name(), t)).orElse(null);
        AccessLogSink accessLog = null;
        Channel channel;
        try {
            accessLog = config.accessLog().enabled() ? AccessLogs.open(config.accessLog()) : null;
            ListenerMetrics metrics = registry.listenerMetrics(config);
            ListenerProtocols protocols = new ListenerProtocols(config.protocols(), registry.forListener(config, accessLog),
                    config.limits().protocolDetectionTimeout().toNanos(), metrics);
            ConnectionGate gate = new ConnectionGate(config.limits().maxConnections(), registry.overload(), metrics);
            NetworkFilterChain filters = registry.networkFilters(config);
            ChannelInitializer<Channel> connections = tls == null ? plaintext(gate, filters, protocols)
                    : decrypted(gate, filters, protocols, tls, config.tls().get(), metrics);
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 4096)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .option(ChannelOption.RCVBUF_ALLOCATOR, AcceptBatch.allocator())
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(32 * 1024, 64 * 1024))
                    .childHandler(connections);
            if (transport == Transport.EPOLL) {
                bootstrap.option(EpollChannelOption.SO_REUSEPORT, true);
            }
            channel = bootstrap.bind(config.address(), config.port()).sync().channel();
        } catch (RuntimeException | InterruptedException e) {
            if (accessLog != null) {
                accessLog.close();
            }
            if (tls != null) {
                tls.close();
            }
            throw e;
        }
        Listener listener = new Listener(config, channel, accessLog, tls);
        log.info("listener {} on {} serving {}{}", config.name(), channel.localAddress(), config.protocols(),
                config.tls().map(t -> " over TLS, ALPN " + t.alpn()).orElse(""));
        return listener;
    }

    private static ChannelInitializer<Channel> plaintext(ConnectionGate gate, NetworkFilterChain filters,
            ListenerProtocols protocols) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (gate.admit(ch)) {
                    if (filters != null) {
                        ch.pipeline().addLast(PipelineNames.NETWORK_FILTERS, filters.newHandler());
                    }
                    protocols.installByFirstBytes(ch.pipeline());
                }
            }
        };
    }

    private static ChannelInitializer<Channel> decrypted(ConnectionGate gate, NetworkFilterChain filters,
            ListenerProtocols protocols, ListenerTls tls, TlsConfig config, ListenerMetrics metrics) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (!gate.admit(ch)) {
                    return;
                }
                if (!config.alpn().isEmpty()) {
                    ch.pipeline().addLast(PipelineNames.ALPN_CHECK, new AlpnOfferCheck(config.alpn(), metrics));
                }
                ch.pipeline().addLast(PipelineNames.TLS, tls.newHandler(ch));
                if (filters != null) {
                    ch.pipeline().addLast(PipelineNames.NETWORK_FILTERS, filters.newHandler());
                }
                ch.pipeline().addLast(PipelineNames.SELECT, new TlsProtocolSelector(protocols, tls, metrics));
            }
        };
    }

    public ListenerConfig config() {
        return config;
    }

    /** The port actually bound (differs from the configured one when that was 0). */
    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        if (accessLog != null) {
            accessLog.close();
        }
        if (tls != null) {
            tls.close();
        }
    }
}
