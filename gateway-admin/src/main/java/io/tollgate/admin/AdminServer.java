package io.tollgate.admin;

import static java.util.Objects.requireNonNull;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.tollgate.core.config.AdminConfig;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin REST API's HTTP server. It runs on its own single event loop so that a slow scrape
 * never delays traffic, and binds where {@link AdminConfig} says (loopback by default).
 */
public final class AdminServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AdminServer.class);
    private static final int MAX_REQUEST_BYTES = 64 * 1024;

    private final EventLoopGroup group;
    private final Channel channel;
    private final AtomicBoolean closed = new AtomicBoolean();

    private AdminServer(EventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    /**
     * Binds the admin API and starts answering.
     *
     * @param config the address and port; port 0 picks a free one, see {@link #port()}
     */
    public static AdminServer start(AdminConfig config, AdminContext context) throws InterruptedException {
        return start(config, context, NioIoHandler.newFactory(), NioServerSocketChannel::new, false);
    }

    /**
     * Starts answering on the given transport: {@code io} drives the admin thread and
     * {@code sockets} makes the listening channel, which is bound, or, with {@code listening}, is
     * already bound and listening (a socket handed over by the previous process in a hot restart)
     * and only registered.
     */
    public static AdminServer start(AdminConfig config, AdminContext context, IoHandlerFactory io,
            ChannelFactory<? extends ServerChannel> sockets, boolean listening) throws InterruptedException {
        requireNonNull(config, "config");
        Console console = new Console(requireNonNull(context, "context"));
        AdminEndpoints endpoints = new AdminEndpoints(context, console);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("tollgate-admin"), io);
        try {
            // the admin thread samples the meters: the I/O event loops only count
            group.next().scheduleAtFixedRate(console::tick, 1, 1, TimeUnit.SECONDS);
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(group)
                    .channelFactory(sockets)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(
                                    new HttpServerCodec(),
                                    new HttpObjectAggregator(MAX_REQUEST_BYTES),
                                    new AdminHandler(endpoints, console.stream(), config.token()));
                        }
                    });
            Channel channel = (listening ? bootstrap.register() : bootstrap.bind(config.address(), config.port()))
                    .sync()
                    .channel();
            AdminServer server = new AdminServer(group, channel);
            log.info("admin API listening on {}:{}", config.address(), server.port());
            return server;
        } catch (Exception e) { // also a BindException, which Netty throws undeclared
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** The port actually bound. */
    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** The listening channel, whose socket a hot restart hands over. */
    public Channel channel() {
        return channel;
    }

    /** Stops listening, closes admin connections and stops the admin thread; again, does nothing. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
