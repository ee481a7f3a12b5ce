package io.tollgate.server.upgrade;

import io.micrometer.core.instrument.Counter;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.UnixChannel;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.tollgate.server.Gateway;
import io.tollgate.server.drain.Drain;
import io.tollgate.server.drain.DrainTrigger;
import io.tollgate.server.inheritance.HotRestartMeters;
import io.tollgate.server.listener.Listener;
import io.tollgate.server.transport.ClientAddresses;
import io.tollgate.server.transport.MovableConnection;
import io.tollgate.server.transport.PipelineNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The old process's side of live connection migration, within its drain. Every plaintext
 * connection whose handler is a {@link MovableConnection} (HTTP/1, Bolt, Dubbo, or one whose
 * protocol is not yet detected) is marked ({@link ReadHold}) and stops reading at its first
 * message boundary, so that no new request starts here and none is left half read; as soon as
 * nothing of it is in flight it is offered to the new process, its descriptor sent when asked, and
 * closed here only once the new process adopted it: closing one of two descriptors of a socket
 * neither sends FIN nor loses a byte, so the client does not notice. TLS connections (their session
 * keys live in this process), HTTP/2 ones (HPACK tables and stream state) and those whose client
 * address came in a PROXY protocol header (read here, not again there) drain as for an exit
 * (GOAWAY, {@code Connection: close}); so does every connection still open at the drain timeout.
 */
final class ConnectionMover {

    private static final Logger log = LoggerFactory.getLogger(ConnectionMover.class);
    /** The first look again at a connection not yet quiescent; each next one waits twice as long, up to the most. */
    private static final long FIRST_POLL_MICROS = 200;
    private static final long MOST_POLL_MICROS = 10_000;

    private final Gateway gateway;
    private final Runnable changed;
    private final Set<Channel> held = ConcurrentHashMap.newKeySet();
    private final Map<Long, Channel> offered = new ConcurrentHashMap<>();
    private final Queue<HandoverMessage.MovingConnection> ready = new ConcurrentLinkedQueue<>();
    private final AtomicLong ids = new AtomicLong();
    private final Counter moved;
    private final Counter lost;
    private volatile boolean abandoned;
    private volatile Drain drain;

    /** @param changed runs, on any thread, when a connection is ready to move or the drain ended */
    ConnectionMover(Gateway gateway, Runnable changed) {
        this.gateway = gateway;
        this.changed = changed;
        this.moved = HotRestartMeters.connections(gateway.metrics().registry(), "moved");
        this.lost = HotRestartMeters.connections(gateway.metrics().registry(), "lost");
    }

    /**
     * Stops accepting, holds every connection that can move, then drains the process: the drain
     * reaches each connection after its hold (both are tasks on its event loop, in that order), so
     * that a connection that moves is never told to go away. Blocks until every event loop has
     * admitted the connections its listeners accepted last.
     */
    void start() {
        gateway.stopAccepting();
        List<Future<?>> admitted = new ArrayList<>();
        for (EventExecutor loop : gateway.eventLoops()) {
            admitted.add(loop.submit(() -> { }));
        }
        admitted.forEach(Future::syncUninterruptibly);
        for (Listener listener : gateway.listeners()) {
            String name = listener.name();
            for (Channel ch : listener.connections().open()) {
                ch.eventLoop().execute(() -> claim(ch, name));
            }
        }
        drain = gateway.drain(DrainTrigger.HOT_RESTART, true);
        drain.done().whenComplete((outcome, error) -> changed.run());
    }

    /** On the connection's loop: holds its reads and waits for it to be quiescent, unless it cannot move. */
    private void claim(Channel ch, String listener) {
        MovableConnection movable = movable(ch);
        if (abandoned || movable == null || !ch.isActive()) {
            return;
        }
        ReadHold.install(ch);
        held.add(ch);
        awaitQuiescence(ch, listener, movable, FIRST_POLL_MICROS);
    }

    private static MovableConnection movable(Channel ch) {
        if (!(ch instanceof UnixChannel) || ch.pipeline().get(PipelineNames.TLS) != null
                || ClientAddresses.proxyHeader(ch) != null) {
            return null;
        }
        ChannelHandler detection = ch.pipeline().get(PipelineNames.DETECT);
        ChannelHandler last = detection != null ? detection : ch.pipeline().last();
        return last instanceof MovableConnection movable ? movable : null;
    }

    private void awaitQuiescence(Channel ch, String listener, MovableConnection movable, long pollMicros) {
        if (!ch.isActive() || abandoned) {
            return;
        }
        if (movable.betweenMessages()) {
            ReadHold.hold(ch);
        }
        ChannelOutboundBuffer outbound = ch.unsafe().outboundBuffer();
        if (movable.quiescent() && (outbound == null || outbound.totalPendingWriteBytes() == 0)) {
            long id = ids.incrementAndGet();
            String protocol = movable.protocol();
            offered.put(id, ch);
            ready.add(new HandoverMessage.MovingConnection(id, listener, protocol == null ? "" : protocol,
                    movable.firstFrameSeen()));
            changed.run();
            return;
        }
        long next = Math.min(2 * pollMicros, MOST_POLL_MICROS);
        ch.eventLoop().schedule(() -> awaitQuiescence(ch, listener, movable, next), pollMicros, TimeUnit.MICROSECONDS);
    }

    /** The connections ready to move, at most {@code max}; empty when none is. */
    List<HandoverMessage.MovingConnection> nextReady(int max) {
        List<HandoverMessage.MovingConnection> batch = new ArrayList<>();
        HandoverMessage.MovingConnection next;
        while (batch.size() < max && (next = ready.poll()) != null) {
            batch.add(next);
        }
        return batch;
    }

    /**
     * Sends the descriptors of the connections {@code ids} on {@code control}, in that order, each
     * from its connection's own loop so that the connection cannot close meanwhile; one that closed
     * already (the drain timed out) is sent as {@code /dev/null}, which the new process counts as
     * lost. Closes {@code control} when a descriptor cannot be sent.
     */
    void send(List<Long> ids, Channel control) {
        sendFrom(ids, 0, control);
    }

    private void sendFrom(List<Long> ids, int index, Channel control) {
        if (index == ids.size()) {
            return;
        }
        Channel ch = offered.get(ids.get(index));
        if (ch == null) {
            control.close();
            return;
        }
        ch.eventLoop().execute(() -> {
            try {
                if (ch.isOpen()) {
                    Descriptors.send(control, ((UnixChannel) ch).fd().intValue());
                } else {
                    sendClosed(control);
                }
            } catch (IOException e) {
                log.warn("hot restart: cannot send connection {}: {}", ch, e.toString());
                control.close();
                return;
            }
            sendFrom(ids, index + 1, control);
        });
    }

    private static void sendClosed(Channel control) throws IOException {
        FileDescriptor devNull = FileDescriptor.from("/dev/null");
        try {
            Descriptors.send(control, devNull.intValue());
        } finally {
            devNull.close();
        }
    }

    /** The new process took connection {@code id}: closes this process's descriptor of it, nothing more. */
    void adopted(long id, boolean served) {
        Channel ch = offered.remove(id);
        if (ch == null) {
            return;
        }
        (served ? moved : lost).increment();
        ch.close();
    }

    /** How many connections moved so far. */
    long movedCount() {
        return (long) moved.count();
    }

    /** The drain under way, once {@link #start} began it. */
    Drain drain() {
        return drain;
    }

    /** Whether the drain ended and no connection waits to move. */
    boolean finished() {
        return drain != null && drain.done().isDone() && ready.isEmpty() && offered.isEmpty();
    }

    /** The new process went away: connections not yet moved read again here and drain. */
    void abandon() {
        abandoned = true;
        ready.clear();
        if (!offered.isEmpty()) {
            log.warn("hot restart: the new process went away; {} connections offered to it drain here", offered.size());
        }
        offered.clear();
        for (Channel ch : held) {
            ch.eventLoop().execute(() -> ReadHold.release(ch));
        }
    }
}
