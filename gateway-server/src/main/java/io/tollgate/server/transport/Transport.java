package io.tollgate.server.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The I/O transport of the process: Linux native epoll when it loads, Java NIO otherwise. Chosen
 * once, so that servers, upstream clients and event loops always agree.
 */
public enum Transport {
    EPOLL(EpollServerSocketChannel.class, EpollSocketChannel.class),
    NIO(NioServerSocketChannel.class, NioSocketChannel.class);

    private static final Logger log = LoggerFactory.getLogger(Transport.class);

    private final Class<? extends ServerSocketChannel> serverChannel;
    private final Class<? extends SocketChannel> socketChannel;

    Transport(Class<? extends ServerSocketChannel> serverChannel, Class<? extends SocketChannel> socketChannel) {
        this.serverChannel = serverChannel;
        this.socketChannel = socketChannel;
    }

    /** Native epoll when available, else NIO; logs the choice and, for NIO, why. */
    public static Transport best() {
        if (Epoll.isAvailable()) {
            log.info("transport: native epoll");
            return EPOLL;
        }
        log.info("transport: NIO (native epoll unavailable: {})", Epoll.unavailabilityCause().toString());
        return NIO;
    }

    /**
     * Creates an event loop group of {@code threads} loops (0: one per core), which closes every
     * connection still on it when it shuts down (see {@link ClosingEventLoopGroup}).
     */
    public EventLoopGroup newGroup(int threads, String name) {
        IoHandlerFactory factory = this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        int n = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        return new ClosingEventLoopGroup(n, new DefaultThreadFactory(name, true), factory);
    }

    public Class<? extends ServerSocketChannel> serverChannel() {
        return serverChannel;
    }

    public Class<? extends SocketChannel> socketChannel() {
        return socketChannel;
    }

    /**
     * A client bootstrap for connections from {@code loop} to {@code address}: no Nagle delay, and
     * a connect abandoned after {@code connectTimeout}. Callers add their own handler.
     */
    public Bootstrap clientTo(EventLoop loop, InetSocketAddress address, Duration connectTimeout) {
        return new Bootstrap()
                .group(loop)
                .channel(socketChannel)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()))
                .remoteAddress(address);
    }
}
