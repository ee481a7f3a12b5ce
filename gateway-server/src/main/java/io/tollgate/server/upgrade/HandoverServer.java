package io.tollgate.server.upgrade;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.tollgate.server.Gateway;
import io.tollgate.server.transport.Transport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a running gateway waits for its successor: a Unix domain socket at
 * {@code upgrade.socket_path}, on one event loop of its own. One hot restart at a time is served;
 * another process that connects meanwhile is refused. When everything is handed over (or, after
 * the new process went away mid-drain, once drained) it closes the gateway, on which the process
 * exits.
 */
public final class HandoverServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HandoverServer.class);

    private final Path path;
    private final EventLoopGroup group;
    private final Gateway gateway;
    private final AtomicBoolean busy = new AtomicBoolean();
    private final AtomicBoolean retired = new AtomicBoolean();
    private final AtomicBoolean socketClosed = new AtomicBoolean();
    private Channel channel;

    private HandoverServer(Path path, Gateway gateway) {
        this.path = path;
        this.gateway = gateway;
        this.group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("tollgate-upgrade", true),
                EpollIoHandler.newFactory());
    }

    /**
     * Listens at {@code path} for a successor of {@code gateway}. A socket file left by a process
     * that ended is replaced; one where a process still answers is not.
     *
     * @throws IllegalStateException when the gateway does not run on epoll, or another process listens at {@code path}
     */
    public static HandoverServer listen(Gateway gateway, Path path)
            throws InterruptedException {
        if (gateway.transport() != Transport.EPOLL) {
            throw new IllegalStateException("hot restart needs the native epoll transport; this gateway runs on NIO");
        }
        removeStaleSocket(path);
        HandoverServer server = new HandoverServer(path, gateway);
        try {
            server.channel = new ServerBootstrap()
                    .group(server.group)
                    .channel(EpollServerDomainSocketChannel.class)
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            if (!server.busy.compareAndSet(false, true)) {
                                log.warn("hot restart: refusing a second successor while one is taking over");
                                ch.close();
                                return;
                            }
                            ch.pipeline().addLast(
                                    new LengthFieldBasedFrameDecoder(HandoverMessage.MAX_FRAME_BYTES, 0, 4, 0, 4),
                                    new LengthFieldPrepender(4),
                                    new OldSide(gateway, server));
                        }
                    })
                    .bind(new DomainSocketAddress(path.toString()))
                    .sync()
                    .channel();
        } catch (RuntimeException | InterruptedException e) {
            server.close();
            throw e;
        }
        log.info("hot restart: a successor can take over at {} (tollgate run --upgrade)", path);
        return server;
    }

    private static void removeStaleSocket(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            probe.connect(UnixDomainSocketAddress.of(path));
            throw new IllegalStateException("upgrade.socket_path: another gateway listens at " + path
                    + "; to take over from it, start this one with --upgrade");
        } catch (IOException refused) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                throw new UncheckedIOException("upgrade.socket_path: cannot remove the stale socket " + path, e);
            }
        }
    }

    /** Stops listening and removes the socket file, so that the successor can listen there in turn. */
    void closeSocket() {
        if (!socketClosed.compareAndSet(false, true)) {
            return;
        }
        if (channel != null) {
            ChannelFuture closed = channel.close();
            if (!channel.eventLoop().inEventLoop()) {
                closed.syncUninterruptibly();
            }
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            log.warn("hot restart: cannot remove {}: {}", path, e.toString());
        }
    }

    void conversationEnded() {
        busy.set(false);
    }

    /** This process handed everything over: closes the gateway, on a thread of its own. */
    void retired() {
        if (retired.compareAndSet(false, true)) {
            new Thread(gateway::close, "tollgate-stop").start();
        }
    }

    @Override
    public void close() {
        closeSocket();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
