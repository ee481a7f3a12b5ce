package io.tollgate.server.listener;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
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
import io.tollgate.server.drain.DrainableListener;
import io.tollgate.server.drain.ListenerConnections;
import io.tollgate.server.tls.ListenerTls;
import io.tollgate.server.transport.Transport;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One bound downstream socket. A connection is handed to its protocol directly when the listener
 * serves one protocol, or after {@link ProtocolDetectionHandler} looked at its first bytes; on a
 * TLS listener, once the handshake is done, by the ALPN name agreed on (see {@link TlsProtocolSelector}).
 * Every new connection first passes the listener's {@link ConnectionGate}; once admitted, it is
 * tracked in the listener's {@link ListenerConnections} until it closes, so that a drain reaches it.
 */
public final class Listener implements DrainableListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Listener.class);

    private final ListenerConfig config;
    private final Channel channel;
    private final AccessLogSink accessLog;
    private final ListenerTls tls;
    private final ListenerConnections connections;

    private Listener(ListenerConfig config, Channel channel, AccessLogSink accessLog, ListenerTls tls,
            ListenerConnections connections) {
        this.config = config;
        this.channel = channel;
        this.accessLog = accessLog;
        this.tls = tls;
        this.connections = connections;
    }

    /** Binds the listener's socket; fails when the address cannot be bound or its certificate cannot be used. */
    public static Listener bind(ListenerConfig config, EventLoopGroup group, Transport transport,
            DownstreamProtocols registry) throws InterruptedException {
        ListenerTls tls = config.tls().map(t -> ListenerTls.start(config.name(), t)).orElse(null);
        AccessLogSink accessLog = null;
        Channel channel;
        ListenerConnections connections;
        try {
            accessLog = config.accessLog().enabled() ? AccessLogs.open(config.accessLog()) : null;
            ListenerMetrics metrics = registry.listenerMetrics(config);
            ListenerProtocols protocols = new ListenerProtocols(config.protocols(), registry.forListener(config, accessLog),
                    config.limits().protocolDetectionTimeout().toNanos(), metrics);
            connections = new ListenerConnections(metrics);
            ConnectionGate gate = new ConnectionGate(config.limits().maxConnections(), registry.overload(), metrics,
                    connections);
            ChannelInitializer<Channel> initializer = tls == null ? plaintext(gate, protocols)
                    : decrypted(gate, protocols, tls, config.tls().get(), metrics);
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 4096)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .option(ChannelOption.RCVBUF_ALLOCATOR, AcceptBatch.allocator())
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(32 * 1024, 64 * 1024))
                    .childHandler(initializer);
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
        Listener listener = new Listener(config, channel, accessLog, tls, connections);
        log.info("listener {} on {} serving {}{}", config.name(), channel.localAddress(), config.protocols(),
                config.tls().map(t -> " over TLS, ALPN " + t.alpn()).orElse(""));
        return listener;
    }

    private static ChannelInitializer<Channel> plaintext(ConnectionGate gate, ListenerProtocols protocols) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (gate.admit(ch)) {
                    protocols.installByFirstBytes(ch.pipeline());
                }
            }
        };
    }

    private static ChannelInitializer<Channel> decrypted(ConnectionGate gate, ListenerProtocols protocols,
            ListenerTls tls, TlsConfig config, ListenerMetrics metrics) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (!gate.admit(ch)) {
                    return;
                }
                if (!config.alpn().isEmpty()) {
                    ch.pipeline().addLast(PipelineNames.ALPN_CHECK, new AlpnOfferCheck(config.alpn(), metrics));
                }
                ch.pipeline().addLast(PipelineNames.TLS, tls.newHandler(ch))
                        .addLast(PipelineNames.SELECT, new TlsProtocolSelector(protocols, tls, metrics));
            }
        };
    }

    public ListenerConfig config() {
        return config;
    }

    @Override
    public String name() {
        return config.name();
    }

    @Override
    public ListenerConnections connections() {
        return connections;
    }

    /**
     * Closes the listening socket; the connections it accepted stay open. Closed when this returns;
     * on the socket's own event loop the close runs at once, elsewhere this waits for it.
     */
    @Override
    public void stopAccepting() {
        ChannelFuture closed = channel.close();
        if (!channel.eventLoop().inEventLoop()) {
            closed.syncUninterruptibly();
        }
    }

    /** The port actually bound (differs from the configured one when that was 0). */
    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /**
     * Closes the listening socket and what serves the listener's connections (access log, TLS
     * certificate watch); drain the connections first, or they lose their access log lines.
     */
    @Override
    public void close() {
        stopAccepting();
        if (accessLog != null) {
            accessLog.close();
        }
        if (tls != null) {
            tls.close();
        }
    }
}
