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
import io.tollgate.server.transport.Transport;
import java.net.InetSocketAddress;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One bound downstream socket. A connection is handed to its protocol directly when the listener
 * serves one protocol, or after {@link ProtocolDetectionHandler} looked at its first bytes.
 */
public final class Listener implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Listener.class);

    private final ListenerConfig config;
    private final Channel channel;
    private final AccessLogSink accessLog;

    private Listener(ListenerConfig config, Channel channel, AccessLogSink accessLog) {
        this.config = config;
        this.channel = channel;
        this.accessLog = accessLog;
    }

    /** Binds the listener's socket; fails when the address cannot be bound. */
    public static Listener bind(ListenerConfig config, EventLoopGroup group, Transport transport,
            DownstreamProtocols registry) throws InterruptedException {
        AccessLogSink accessLog = config.accessLog().enabled() ? AccessLogs.open(config.accessLog()) : null;
        List<DownstreamProtocol> protocols = registry.forListener(config, accessLog);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(transport.serverChannel())
                .option(ChannelOption.SO_BACKLOG, 4096)
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.RCVBUF_ALLOCATOR, AcceptBatch.allocator())
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(32 * 1024, 64 * 1024))
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (protocols.size() == 1) {
                            protocols.get(0).configure(ch.pipeline());
                        } else {
                            ch.pipeline().addLast(PipelineNames.DETECT, new ProtocolDetectionHandler(protocols));
                        }
                    }
                });
        if (transport == Transport.EPOLL) {
            bootstrap.option(EpollChannelOption.SO_REUSEPORT, true);
        }
        Channel channel;
        try {
            channel = bootstrap.bind(config.address(), config.port()).sync().channel();
        } catch (RuntimeException | InterruptedException e) {
            if (accessLog != null) {
                accessLog.close();
            }
            throw e;
        }
        Listener listener = new Listener(config, channel, accessLog);
        log.info("listener {} on {} serving {}", config.name(), channel.localAddress(), config.protocols());
        return listener;
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
    }
}
