package io.tollgate.server.upgrade;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.server.Gateway;
import io.tollgate.server.Launch;
import io.tollgate.server.inheritance.Inheritance;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The new process's side of a hot restart ({@code tollgate run --upgrade}), as Envoy and MOSN do
 * it: {@link #connect} finds the running gateway at its {@code upgrade.socket_path} and receives
 * the listening sockets the two configurations share and the admin socket, and the counters; the
 * caller starts its gateway on them ({@link #inheritance}), then calls {@link #serving}, on which
 * the old process stops accepting, moves its idle connections over and drains the rest. Nothing
 * changes for the old process before {@link #serving}: {@link #abort} (or this process ending)
 * leaves it serving.
 */
public final class HotRestart implements AutoCloseable {

    private final EventLoopGroup group;
    private final NewSide side;
    private final Inheritance inheritance;

    private HotRestart(EventLoopGroup group, NewSide side, Inheritance inheritance) {
        this.group = group;
        this.side = side;
        this.inheritance = inheritance;
    }

    /**
     * Connects to the gateway listening at {@code socket} and takes over the sockets that
     * {@code config} shares with it.
     *
     * @throws IllegalStateException when epoll is unavailable, nothing answers at {@code socket}, or
     *     the running gateway refuses or fails within {@code timeout}
     */
    public static HotRestart connect(Path socket, GatewayConfig config, Duration timeout) throws InterruptedException {
        if (!Epoll.isAvailable()) {
            throw new IllegalStateException("--upgrade needs the native epoll transport, unavailable here: "
                    + Epoll.unavailabilityCause());
        }
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("tollgate-upgrade", true),
                EpollIoHandler.newFactory());
        NewSide side = new NewSide(config);
        try {
            ChannelFuture connected = new Bootstrap()
                    .group(group)
                    .channel(EpollDomainSocketChannel.class)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(
                                    new LengthFieldBasedFrameDecoder(HandoverMessage.MAX_FRAME_BYTES, 0, 4, 0, 4),
                                    new LengthFieldPrepender(4),
                                    side);
                        }
                    })
                    .connect(new DomainSocketAddress(socket.toString()));
            if (!connected.await(timeout.toMillis(), TimeUnit.MILLISECONDS) || !connected.isSuccess()) {
                throw new IllegalStateException("no running gateway answers at " + socket + " (upgrade.socket_path): "
                        + (connected.cause() == null ? "timed out" : connected.cause().getMessage()));
            }
            Inheritance inheritance = await(side.inheritance(), timeout, socket);
            return new HotRestart(group, side, inheritance);
        } catch (RuntimeException | InterruptedException e) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    private static Inheritance await(CompletableFuture<Inheritance> inheritance, Duration timeout, Path socket)
            throws InterruptedException {
        try {
            return inheritance.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("hot restart from " + socket + " failed: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("hot restart from " + socket + ": no answer within " + timeout);
        }
    }

    /** The sockets, epoch and counters to start the new gateway with. */
    public Inheritance inheritance() {
        return inheritance;
    }

    /**
     * How this process was started: the epoch after the old process's, and the first epoch's
     * start carried on.
     */
    public Launch launch(Path configFile, List<String> commandLine) {
        HandoverMessage.Info info = side.info();
        return new Launch(configFile, commandLine, info.epoch() + 1, Instant.ofEpochMilli(info.firstEpochStartedMillis()));
    }

    /** The new gateway serves: the old process stops accepting, hands its idle connections over and drains. */
    public void serving(Gateway gateway) {
        side.serving(gateway);
    }

    /** Completes once the old process retired (or went away). */
    public CompletableFuture<Void> finished() {
        return side.finished();
    }

    /** Ends the conversation; before {@link #serving}, the old process serves on as if nothing happened. */
    @Override
    public void close() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
