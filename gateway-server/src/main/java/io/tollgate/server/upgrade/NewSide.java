package io.tollgate.server.upgrade;

import io.micrometer.core.instrument.Counter;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.unix.DomainSocketReadMode;
import io.netty.channel.unix.FileDescriptor;
import io.tollgate.core.config.AdminConfig;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.server.Gateway;
import io.tollgate.server.inheritance.HotRestartMeters;
import io.tollgate.server.inheritance.Inheritance;
import io.tollgate.server.upgrade.HandoverMessage.ListenerSocket;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The new process's end of a hot restart conversation (see {@link HandoverMessage}): it asks for
 * the sockets its configuration shares with the old process's, then, once its gateway serves,
 * for every connection that moves, until the old process is done.
 *
 * <p>A descriptor must arrive while the channel reads descriptors and a message while it reads
 * bytes, so the read mode changes, and the next question is written, only when a read batch is
 * complete ({@link #channelReadComplete}); the old process answers nothing unasked.
 */
final class NewSide extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(NewSide.class);

    private final GatewayConfig config;
    private final CompletableFuture<Inheritance> inheritance = new CompletableFuture<>();
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    private final Queue<HandoverMessage> takes = new ArrayDeque<>();
    private final Map<String, FileDescriptor> listenerSockets = new HashMap<>();
    private ChannelHandlerContext ctx;
    private HandoverMessage.Info info;
    private HandoverMessage taking;
    private FileDescriptor adminSocket;
    private List<HandoverMessage.MovingConnection> moving = List.of();
    private final List<HandoverMessage.AdoptedConnection> adoptedNow = new ArrayList<>();
    private Runnable afterRead;
    private volatile Gateway gateway;
    private Counter adopted;
    private Counter lost;

    NewSide(GatewayConfig config) {
        this.config = config;
    }

    /** Completes with what the old process handed over, or fails when it would not or could not. */
    CompletableFuture<Inheritance> inheritance() {
        return inheritance;
    }

    /** What the old process said of itself; set once {@link #inheritance} completed. */
    HandoverMessage.Info info() {
        return info;
    }

    /** Completes when the old process is done (or gone). */
    CompletableFuture<Void> finished() {
        return finished;
    }

    /** {@code gateway} serves on the sockets taken: the old process may drain; from any thread. */
    void serving(Gateway gateway) {
        this.gateway = gateway;
        adopted = HotRestartMeters.connections(gateway.metrics().registry(), "adopted");
        lost = HotRestartMeters.connections(gateway.metrics().registry(), "lost");
        ctx.executor().execute(() -> {
            write(new HandoverMessage.Serving());
            write(new HandoverMessage.Next());
        });
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        write(new HandoverMessage.Hello(HandoverMessage.VERSION));
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof FileDescriptor fd) {
            descriptor(fd);
            return;
        }
        HandoverMessage message;
        try {
            message = HandoverMessage.decode((ByteBuf) msg);
        } finally {
            ((ByteBuf) msg).release();
        }
        if (message instanceof HandoverMessage.Refused refused) {
            inheritance.completeExceptionally(new IllegalStateException("the running gateway refused: " + refused.reason()));
            ctx.close();
        } else if (message instanceof HandoverMessage.Info received) {
            info(received);
        } else if (message instanceof HandoverMessage.Moving next) {
            moving = next.connections();
            adoptedNow.clear();
            afterRead = () -> {
                readDescriptors(true);
                write(new HandoverMessage.TakeConnections());
            };
        } else if (message instanceof HandoverMessage.Done done) {
            HotRestartMeters.addAll(done.increments(), gateway.metrics().registry());
            log.info("hot restart: the previous process retired; its last counter increments are added");
            finished.complete(null);
            ctx.close();
        } else {
            throw new IllegalArgumentException("hot restart: unexpected " + message);
        }
    }

    private void info(HandoverMessage.Info received) {
        info = received;
        for (ListenerConfig listener : config.listeners()) {
            for (ListenerSocket old : received.listeners()) {
                if (old.name().equals(listener.name()) && old.address().equals(listener.address())
                        && old.port() == listener.port()) {
                    takes.add(new HandoverMessage.TakeListener(listener.name()));
                }
            }
        }
        AdminConfig admin = config.admin();
        if (received.admin() != null && received.admin().address().equals(admin.address())
                && received.admin().port() == admin.port()) {
            takes.add(new HandoverMessage.TakeAdmin());
        }
        afterRead = this::takeNext;
    }

    /** Asks for the next socket, or, with all taken, hands them to the gateway about to start. */
    private void takeNext() {
        taking = takes.poll();
        if (taking != null) {
            readDescriptors(true);
            write(taking);
            return;
        }
        readDescriptors(false);
        inheritance.complete(new Inheritance(listenerSockets, adminSocket, info.counters()));
    }

    private void descriptor(FileDescriptor fd) {
        if (taking instanceof HandoverMessage.TakeListener listener) {
            listenerSockets.put(listener.name(), fd);
            afterRead = this::takeNext;
        } else if (taking instanceof HandoverMessage.TakeAdmin) {
            adminSocket = fd;
            afterRead = this::takeNext;
        } else if (adoptedNow.size() < moving.size()) {
            HandoverMessage.MovingConnection adopting = moving.get(adoptedNow.size());
            adoptedNow.add(new HandoverMessage.AdoptedConnection(adopting.id(), adopt(adopting, fd)));
            if (adoptedNow.size() == moving.size()) {
                List<HandoverMessage.AdoptedConnection> batch = List.copyOf(adoptedNow);
                afterRead = () -> {
                    readDescriptors(false);
                    write(new HandoverMessage.Adopted(batch));
                    write(new HandoverMessage.Next());
                };
            }
        } else {
            closeQuietly(fd);
            throw new IllegalStateException("hot restart: a descriptor nobody asked for");
        }
        taking = null;
    }

    private boolean adopt(HandoverMessage.MovingConnection connection, FileDescriptor fd) {
        EpollSocketChannel channel;
        try {
            channel = new EpollSocketChannel(fd.intValue());
        } catch (RuntimeException e) { // not a socket: the connection had closed before it was sent
            closeQuietly(fd);
            lost.increment();
            return false;
        }
        String protocol = connection.protocol().isEmpty() ? null : connection.protocol();
        boolean served = gateway.adoptConnection(connection.listener(), channel, protocol, connection.firstFrameSeen());
        (served ? adopted : lost).increment();
        return served;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        Runnable next = afterRead;
        afterRead = null;
        if (next != null) {
            next.run();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (inheritance.completeExceptionally(new IllegalStateException("the running gateway ended the hot restart"))) {
            listenerSockets.values().forEach(NewSide::closeQuietly);
            if (adminSocket != null) {
                closeQuietly(adminSocket);
            }
        }
        if (!finished.isDone() && gateway != null) {
            log.warn("hot restart: the previous process went away without its last counter increments");
        }
        finished.complete(null);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.warn("hot restart: conversation failed: {}", cause.toString());
        inheritance.completeExceptionally(cause);
        ctx.close();
    }

    private void readDescriptors(boolean descriptors) {
        ((EpollDomainSocketChannel) ctx.channel()).config()
                .setReadMode(descriptors ? DomainSocketReadMode.FILE_DESCRIPTORS : DomainSocketReadMode.BYTES);
    }

    private void write(HandoverMessage message) {
        ctx.writeAndFlush(HandoverMessage.encode(ctx.alloc(), message)).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    }

    private static void closeQuietly(FileDescriptor fd) {
        try {
            fd.close();
        } catch (IOException e) {
            log.debug("closing {}: {}", fd, e.toString());
        }
    }
}
