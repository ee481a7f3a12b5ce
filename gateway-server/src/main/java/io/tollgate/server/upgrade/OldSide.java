package io.tollgate.server.upgrade;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.unix.FileDescriptor;
import io.tollgate.core.config.GatewayConfig;
import io.tollgate.core.config.ListenerConfig;
import io.tollgate.server.Gateway;
import io.tollgate.server.Launch;
import io.tollgate.server.inheritance.CounterValue;
import io.tollgate.server.listener.Listener;
import io.tollgate.server.upgrade.HandoverMessage.AdminSocket;
import io.tollgate.server.upgrade.HandoverMessage.ListenerSocket;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running process's end of one hot restart conversation (see {@link HandoverMessage}): it
 * answers the new process's questions on the handover socket's event loop. Until the new process
 * says it serves, nothing changes here, so a new process that fails leaves this one serving as
 * before; from then on this process stops accepting, moves its idle connections and drains the
 * rest, and once nothing is left it sends its counters' last increments and retires.
 */
final class OldSide extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(OldSide.class);
    /** The most connections offered at once: their descriptors follow one another without a round trip. */
    private static final int MAX_BATCH = 256;

    private final Gateway gateway;
    private final HandoverServer server;
    private ChannelHandlerContext ctx;
    private List<CounterValue> countersSent = List.of();
    private ConnectionMover mover;
    private boolean nextAsked;
    private List<Long> offered = List.of();
    private int batches;
    private boolean done;

    OldSide(Gateway gateway, HandoverServer server) {
        this.gateway = gateway;
        this.server = server;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        HandoverMessage message;
        try {
            message = HandoverMessage.decode((ByteBuf) msg);
        } finally {
            ((ByteBuf) msg).release();
        }
        if (message instanceof HandoverMessage.Hello hello) {
            hello(hello);
        } else if (message instanceof HandoverMessage.TakeListener take) {
            sendSocket(listenerSocket(take.name()));
        } else if (message instanceof HandoverMessage.TakeAdmin) {
            sendSocket(gateway.adminSocket());
        } else if (message instanceof HandoverMessage.Serving) {
            serving();
        } else if (message instanceof HandoverMessage.Next) {
            nextAsked = true;
            answerNext();
        } else if (message instanceof HandoverMessage.TakeConnections) {
            mover.send(offered, ctx.channel());
        } else if (message instanceof HandoverMessage.Adopted adopted) {
            for (HandoverMessage.AdoptedConnection connection : adopted.connections()) {
                mover.adopted(connection.id(), connection.served());
            }
        } else {
            throw new IllegalArgumentException("hot restart: unexpected " + message);
        }
    }

    private void hello(HandoverMessage.Hello hello) {
        if (hello.version() != HandoverMessage.VERSION) {
            write(new HandoverMessage.Refused("this gateway speaks hot restart version " + HandoverMessage.VERSION
                    + ", not " + hello.version()));
            return;
        }
        if (gateway.drains().draining()) {
            write(new HandoverMessage.Refused("this gateway is draining"));
            return;
        }
        GatewayConfig config = gateway.snapshot().config();
        List<ListenerSocket> listeners = new ArrayList<>();
        for (Listener listener : gateway.listeners()) {
            ListenerConfig c = listener.config();
            if (listener.socket() != null) {
                listeners.add(new ListenerSocket(c.name(), c.address(), c.port()));
            }
        }
        AdminSocket admin = gateway.adminSocket() == null ? null
                : new AdminSocket(config.admin().address(), config.admin().port());
        countersSent = CounterValue.of(registry());
        Launch launch = gateway.launch();
        log.info("hot restart: a new process (epoch {}) is taking over {} listeners{}", launch.restartEpoch() + 1,
                listeners.size(), admin == null ? "" : " and the admin API");
        write(new HandoverMessage.Info(launch.restartEpoch(), launch.firstEpochStarted().toEpochMilli(), listeners, admin,
                countersSent));
    }

    private FileDescriptor listenerSocket(String name) {
        for (Listener listener : gateway.listeners()) {
            if (listener.config().name().equals(name)) {
                return listener.socket();
            }
        }
        return null;
    }

    /** Answers with a socket's descriptor; a socket that went away (a reload) ends the conversation. */
    private void sendSocket(FileDescriptor socket) {
        if (socket == null) {
            log.warn("hot restart: a socket the new process asked for is gone; ending the hot restart");
            ctx.close();
            return;
        }
        try {
            Descriptors.send(ctx.channel(), socket.intValue());
        } catch (IOException e) {
            log.warn("hot restart: cannot send a listening socket: {}", e.toString());
            ctx.close();
        }
    }

    private void serving() {
        log.info("hot restart: the new process serves; this one stops accepting, moves its idle connections and drains");
        mover = new ConnectionMover(gateway, () -> ctx.executor().execute(this::answerNext));
        mover.start();
    }

    /** Answers a waiting {@code Next}: the next connection ready to move, or the end once nothing is left. */
    private void answerNext() {
        if (!nextAsked || done) {
            return;
        }
        List<HandoverMessage.MovingConnection> batch = mover.nextReady(MAX_BATCH);
        if (!batch.isEmpty()) {
            nextAsked = false;
            offered = batch.stream().map(HandoverMessage.MovingConnection::id).toList();
            batches++;
            write(new HandoverMessage.Moving(batch));
            return;
        }
        if (!mover.finished()) {
            return;
        }
        done = true;
        server.closeSocket();
        List<CounterValue> increments = CounterValue.increments(countersSent, CounterValue.of(registry()));
        log.info("hot restart: nothing left to move or drain ({} connections moved in {} batches); handing over the"
                + " last counter increments and retiring", mover.movedCount(), batches);
        ctx.writeAndFlush(HandoverMessage.encode(ctx.alloc(), new HandoverMessage.Done(increments)))
                .addListener(ChannelFutureListener.CLOSE)
                .addListener(written -> server.retired());
    }

    private MeterRegistry registry() {
        return gateway.metrics().registry();
    }

    private void write(HandoverMessage message) {
        ctx.writeAndFlush(HandoverMessage.encode(ctx.alloc(), message)).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (mover != null && !done) {
            log.warn("hot restart: the new process went away while this one was draining; it exits once drained");
            mover.abandon();
            mover.drain().done().whenComplete((outcome, error) -> server.retired());
        } else if (mover == null) {
            log.warn("hot restart: the new process went away before serving; this one serves on as before");
        }
        server.conversationEnded();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.warn("hot restart: conversation failed: {}", cause.toString());
        ctx.close();
    }
}
