package io.tollgate.server.listener;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.UnixChannel;
import io.tollgate.core.accesslog.AccessLogSink;
import io.tollgate.core.accesslog.AccessLogs;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.core.config.TlsConfig;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.server.drain.DrainableListener;
import io.tollgate.server.drain.ListenerConnections;
import io.tollgate.server.network.NetworkFilterChain;
import io.tollgate.server.tls.ListenerTls;
import io.tollgate.server.transport.PipelineNames;
import io.tollgate.server.transport.Transport;
import java.net.InetSocketAddress;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One bound downstream socket. A connection is handed to its protocol directly when the listener
 * serves one protocol, or after {@link ProtocolDetectionHandler} looked at its first bytes; on a
 * TLS listener, once the handshake is done, by the ALPN name agreed on (see {@link TlsProtocolSelector}).
 * Every new connection first passes the listener's {@link ConnectionGate}, then its network
 * filters ({@link NetworkFilterChain}, when it has any), after its PROXY protocol header on a
 * listener that reads one ({@link ProxyProtocolStage}); once admitted, it is tracked in the
 * listener's {@link ListenerConnections} until it closes, so that a drain reaches it. In a hot
 * restart the listening socket comes from the previous process ({@link #adopt}) and so may live
 * connections ({@link #adoptConnection}), which passed their network filters there. A reload that
 * changes a listener but not its address hands the listening socket to its successor in this
 * process ({@link #succeed}), so that no connection attempt is refused in between.
 */
public final class Listener implements DrainableListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Listener.class);

    private final ListenerConfig config;
    private final Channel channel;
    private final AccessLogSink accessLog;
    private final ListenerTls tls;
    private final ConnectionGate gate;
    private final ListenerProtocols protocols;
    private final EventLoopGroup group;
    private final ListenerConnections connections;
    private volatile boolean socketHandedOver;

    private Listener(ListenerConfig config, Channel channel, AccessLogSink accessLog, ListenerTls tls,
            ConnectionGate gate, ListenerProtocols protocols, EventLoopGroup group, ListenerConnections connections) {
        this.config = config;
        this.channel = channel;
        this.accessLog = accessLog;
        this.tls = tls;
        this.gate = gate;
        this.protocols = protocols;
        this.group = group;
        this.connections = connections;
    }

    /** Binds the listener's socket; fails when the address cannot be bound or its certificate cannot be used. */
    public static Listener bind(ListenerConfig config, EventLoopGroup group, Transport transport,
            DownstreamProtocols registry) throws InterruptedException {
        return open(config, group, transport, registry, null);
    }

    /**
     * Serves on a listening socket another process bound and handed over ({@code socket}, which
     * this listener owns from now on) instead of binding one: the hot restart's listener handover.
     * It accepts nothing before {@link #startAccepting}, so that a process that fails to start
     * takes no connection from the one still serving. Needs the epoll transport.
     */
    public static Listener adopt(ListenerConfig config, EventLoopGroup group, Transport transport,
            DownstreamProtocols registry, FileDescriptor socket) throws InterruptedException {
        if (transport != Transport.EPOLL) {
            throw new IllegalStateException("listeners." + config.name() + ": a handed-over socket needs the epoll transport");
        }
        return open(config, group, transport, registry, socket);
    }

    /**
     * Serves {@code config}, a changed version of {@code previous} at the same address, on
     * {@code previous}'s own listening socket: {@code previous} stops accepting (its connections
     * stay open, for a drain to reach) and this listener accepts from the same queue, so that no
     * connection attempt is refused or lost in between. When this listener cannot be set up,
     * {@code previous} accepts again and the exception is thrown. Needs the epoll transport.
     */
    public static Listener succeed(ListenerConfig config, Listener previous, EventLoopGroup group,
            Transport transport, DownstreamProtocols registry) throws InterruptedException {
        if (transport != Transport.EPOLL) {
            throw new IllegalStateException("listeners." + config.name()
                    + ": a listener changes in place on the epoll transport only (restart, or use a new name)");
        }
        FileDescriptor socket = previous.releaseSocket();
        try {
            Listener next = open(config, group, transport, registry, socket);
            next.startAccepting();
            return next;
        } catch (RuntimeException | InterruptedException e) {
            previous.resumeSocket();
            throw e;
        }
    }

    /**
     * Hands the listening socket back to {@code previous}, the listener this one {@link #succeed succeeded}:
     * a reload that could not be applied whole undoes the change. Closes what else this listener
     * opened (access log, certificate watch).
     */
    public void handBackTo(Listener previous) {
        releaseSocket();
        previous.resumeSocket();
        close();
    }

    /** Stops accepting without closing the listening socket, which another listener of this process takes over. */
    private FileDescriptor releaseSocket() {
        channel.config().setAutoRead(false);
        channel.deregister().syncUninterruptibly();
        socketHandedOver = true;
        return ((UnixChannel) channel).fd();
    }

    private void resumeSocket() {
        socketHandedOver = false;
        group.register(channel).syncUninterruptibly();
        channel.config().setAutoRead(true);
    }

    private static Listener open(ListenerConfig config, EventLoopGroup group, Transport transport,
            DownstreamProtocols registry, FileDescriptor inherited) throws InterruptedException {
        ListenerTls tls = config.tls().map(t -> ListenerTls.start(config.name(), t)).orElse(null);
        AccessLogSink accessLog = null;
        Channel channel;
        ConnectionGate gate;
        ListenerProtocols protocols;
        ListenerConnections connections;
        try {
            accessLog = config.accessLog().enabled() ? AccessLogs.open(config.accessLog()) : null;
            ListenerMetrics metrics = registry.listenerMetrics(config);
            protocols = new ListenerProtocols(config.protocols(), registry.forListener(config, accessLog),
                    config.limits().protocolDetectionTimeout().toNanos(), metrics);
            connections = new ListenerConnections(metrics);
            gate = new ConnectionGate(config.limits().maxConnections(), registry.overload(), metrics, connections);
            NetworkFilterChain filters = registry.networkFilters(config);
            ProxyProtocolStage proxyProtocol = config.proxyProtocol().map(p -> ProxyProtocolStage.of(p, metrics,
                    registry.metrics().registry(), config.name())).orElse(null);
            ChannelInitializer<Channel> initializer = tls == null ? plaintext(gate, proxyProtocol, filters, protocols)
                    : decrypted(gate, proxyProtocol, filters, protocols, tls, config.tls().get(), metrics);
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(group)
                    .option(ChannelOption.SO_BACKLOG, 4096)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .option(ChannelOption.RCVBUF_ALLOCATOR, AcceptBatch.allocator())
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(32 * 1024, 64 * 1024))
                    .childHandler(initializer);
            if (transport == Transport.EPOLL) {
                bootstrap.option(EpollChannelOption.SO_REUSEPORT, true);
                bootstrap.option(EpollChannelOption.IP_TRANSPARENT, config.transparent());
            } else if (config.transparent()) {
                throw new IllegalStateException("listeners." + config.name()
                        + ".transparent: needs the epoll transport (Linux), which is not available here");
            }
            if (inherited == null) {
                channel = bootstrap.channel(transport.serverChannel()).bind(config.address(), config.port()).sync().channel();
            } else {
                ChannelFactory<ServerChannel> handedOver = () -> new EpollServerSocketChannel(inherited.intValue());
                channel = bootstrap.channelFactory(handedOver).option(ChannelOption.AUTO_READ, false)
                        .register().sync().channel();
            }
        } catch (RuntimeException | InterruptedException e) {
            if (accessLog != null) {
                accessLog.close();
            }
            if (tls != null) {
                tls.close();
            }
            throw e;
        }
        Listener listener = new Listener(config, channel, accessLog, tls, gate, protocols, group, connections);
        log.info("listener {} {} {}{} serving {}{}", config.name(), inherited == null ? "bound" : "took over",
                channel.localAddress(), config.transparent() ? " (transparent)" : "", config.protocols(),
                config.tls().map(t -> " over TLS, ALPN " + t.alpn()).orElse(""));
        return listener;
    }

    private static ChannelInitializer<Channel> plaintext(ConnectionGate gate, ProxyProtocolStage proxyProtocol,
            NetworkFilterChain filters, ListenerProtocols protocols) {
        Consumer<ChannelPipeline> install = pipeline -> {
            if (filters != null) {
                pipeline.addLast(PipelineNames.NETWORK_FILTERS, filters.newHandler());
            }
            protocols.installByFirstBytes(pipeline);
        };
        return initializer(gate, proxyProtocol, install);
    }

    private static ChannelInitializer<Channel> decrypted(ConnectionGate gate, ProxyProtocolStage proxyProtocol,
            NetworkFilterChain filters, ListenerProtocols protocols, ListenerTls tls, TlsConfig config,
            ListenerMetrics metrics) {
        Consumer<ChannelPipeline> install = pipeline -> {
            if (!config.alpn().isEmpty()) {
                pipeline.addLast(PipelineNames.ALPN_CHECK, new AlpnOfferCheck(config.alpn(), metrics));
            }
            pipeline.addLast(PipelineNames.TLS, tls.newHandler(pipeline.channel()));
            if (filters != null) {
                pipeline.addLast(PipelineNames.NETWORK_FILTERS, filters.newHandler());
            }
            pipeline.addLast(PipelineNames.SELECT, new TlsProtocolSelector(protocols, tls, metrics));
        };
        return initializer(gate, proxyProtocol, install);
    }

    /**
     * Admits each new connection and sets it up with {@code install}, after its PROXY protocol
     * header when the listener reads one ({@code proxyProtocol} not null).
     */
    private static ChannelInitializer<Channel> initializer(ConnectionGate gate, ProxyProtocolStage proxyProtocol,
            Consumer<ChannelPipeline> install) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                if (!gate.admit(ch)) {
                    return;
                }
                if (proxyProtocol == null) {
                    install.accept(ch.pipeline());
                } else {
                    proxyProtocol.begin(ch, install);
                }
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
     * Stops accepting: closes this process's descriptor of the listening socket; the connections
     * it accepted stay open. When another process holds the socket too (a hot restart handed it
     * over), the socket stays open and that process goes on accepting. Closed when this returns;
     * on the socket's own event loop the close runs at once, elsewhere this waits for it. Does
     * nothing once the socket went to a {@link #succeed successor}.
     */
    @Override
    public void stopAccepting() {
        if (socketHandedOver) {
            return;
        }
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
     * The listening socket's descriptor, to hand over to the next process; null on NIO. The socket
     * stays this listener's.
     */
    public FileDescriptor socket() {
        return channel instanceof UnixChannel unix ? unix.fd() : null;
    }

    /**
     * Serves a connection that moved here from another process (a new, unregistered epoll channel
     * on its descriptor) with the protocol it spoke there ({@code protocol}, null when it was not
     * yet known); closes it when this listener does not serve that protocol or is full.
     *
     * @param firstFrameSeen whether an RPC connection already sent a frame, so that the first frame timeout does not apply
     * @return false when the connection was closed instead
     */
    public boolean adoptConnection(Channel connection, String protocol, boolean firstFrameSeen) {
        connection.config().setOption(ChannelOption.TCP_NODELAY, true);
        connection.config().setWriteBufferWaterMark(new WriteBufferWaterMark(32 * 1024, 64 * 1024));
        boolean[] served = {true};
        connection.pipeline().addLast(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                served[0] = gate.admit(ch) && protocols.installMoved(ch.pipeline(), protocol, firstFrameSeen);
                if (!served[0]) {
                    ch.close();
                }
            }
        });
        group.next().register(connection).syncUninterruptibly();
        return served[0];
    }

    /** Accepts connections, when a handed-over socket did not yet. */
    public void startAccepting() {
        channel.config().setAutoRead(true);
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
