package io.tollgate.server.upgrade;

import io.micrometer.core.instrument.Counter;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.EventLoop;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.UnixChannel;
import io.tollgate.server.Gateway;
import io.tollgate.server.listener.Listener;
import io.tollgate.server.listener.MovableConnection;
import io.tollgate.server.listener.PipelineNames;
import java.io.IOException;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The old process's side of live connection migration. Every plaintext connection whose handler is
 * a {@link MovableConnection} (HTTP/1, Bolt, Dubbo, or one whose protocol is not yet detected)
 * stops reading at once ({@link ReadHold}); as soon as nothing of it is in flight or buffered it is
 * offered to the new process, its descriptor sent when asked, and closed here only once the new
 * process adopted it: closing one of two descriptors of a socket neither sends FIN nor loses a
 * byte, so the client does not notice. TLS connections (their session keys live in this process)
 * and HTTP/2 ones (HPACK tables and stream state) are left to drain.
 *
 * <p>Connections are looked for again every {@value #SCAN_MILLIS} ms, which finds those accepted
 * just before the listeners closed; the process is done when no connection is left or at the
 * deadline.
 */
final class ConnectionMover {

    private static final Logger log = LoggerFactory.getLogger(ConnectionMover.class);
    private static final long SCAN_MILLIS = 20;
    private static final long QUIESCENCE_POLL_MICROS = 500;

    private final Gateway gateway;
    private final long deadlineNanos;
    private final Runnable changed;
    private final Set<Channel> seen = ConcurrentHashMap.newKeySet();
    private final Map<Long, Channel> offered = new ConcurrentHashMap<>();
    private final Queue<HandoverMessage.Moving> ready = new ConcurrentLinkedQueue<>();
    private final AtomicLong ids = new AtomicLong();
    private final Counter moved;
    private final Counter lost;
    private volatile boolean abandoned;
    private ScheduledFuture<?> scanning;

    /**
     * @param drainTimeout the longest the old process waits for its connections to move or end
     * @param changed runs, on any thread, when a connection is ready to move or everything ended
     */
    ConnectionMover(Gateway gateway, long drainTimeoutNanos, Runnable changed) {
        this.gateway = gateway;
        this.deadlineNanos = System.nanoTime() + drainTimeoutNanos;
        this.changed = changed;
        this.moved = HotRestartMeters.connections(gateway.metrics().registry(), "moved");
        this.lost = HotRestartMeters.connections(gateway.metrics().registry(), "lost");
    }

    /** Starts looking for connections, on {@code scheduler}, until everything ended or {@link #abandon}. */
    void start(EventLoop scheduler) {
        scanning = scheduler.scheduleWithFixedDelay(() -> {
            scan();
            changed.run();
        }, 0, SCAN_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Stops looking for connections. */
    void stop() {
        if (scanning != null) {
            scanning.cancel(false);
        }
    }

    private void scan() {
        for (Listener listener : gateway.listeners()) {
            String name = listener.config().name();
            for (Channel ch : listener.connections()) {
                if (seen.add(ch)) {
                    ch.eventLoop().execute(() -> claim(ch, name));
                }
            }
        }
    }

    /** On the connection's loop: holds its reads and waits for it to be quiescent, unless it cannot move. */
    private void claim(Channel ch, String listener) {
        MovableConnection movable = movable(ch);
        if (abandoned || movable == null || !ch.isActive()) {
            return;
        }
        ReadHold.hold(ch);
        awaitQuiescence(ch, listener, movable);
    }

    private static MovableConnection movable(Channel ch) {
        if (!(ch instanceof UnixChannel) || ch.pipeline().get(PipelineNames.TLS) != null) {
            return null;
        }
        ChannelHandler detection = ch.pipeline().get(PipelineNames.DETECT);
        ChannelHandler last = detection != null ? detection : ch.pipeline().last();
        return last instanceof MovableConnection movable ? movable : null;
    }

    private void awaitQuiescence(Channel ch, String listener, MovableConnection movable) {
        if (!ch.isActive()) {
            return;
        }
        if (abandoned || System.nanoTime() - deadlineNanos > 0) {
            ReadHold.release(ch);
            return;
        }
        ChannelOutboundBuffer outbound = ch.unsafe().outboundBuffer();
        if (movable.quiescent() && (outbound == null || outbound.totalPendingWriteBytes() == 0)) {
            long id = ids.incrementAndGet();
            String protocol = movable.protocol();
            offered.put(id, ch);
            ready.add(new HandoverMessage.Moving(id, listener, protocol == null ? "" : protocol, movable.firstFrameSeen()));
            changed.run();
            return;
        }
        ch.eventLoop().schedule(() -> awaitQuiescence(ch, listener, movable), QUIESCENCE_POLL_MICROS, TimeUnit.MICROSECONDS);
    }

    /** The next connection ready to move, or null. */
    HandoverMessage.Moving nextReady() {
        return ready.poll();
    }

    /**
     * Sends the descriptor of connection {@code id} on {@code control}, from the connection's own
     * loop so that it cannot close meanwhile; a connection that closed already is sent as
     * {@code /dev/null}, which the new process recognises as lost. Closes {@code control} when the
     * descriptor cannot be sent.
     */
    void send(long id, Channel control) {
        Channel ch = offered.get(id);
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
            }
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

    /** The new process serves connection {@code id}: closes this process's descriptor of it, nothing more. */
    void adopted(long id, boolean served) {
        Channel ch = offered.remove(id);
        if (ch == null) {
            return;
        }
        (served ? moved : lost).increment();
        ch.close();
    }

    /** Whether no connection is left, or the deadline passed. */
    boolean finished() {
        if (!ready.isEmpty() || !offered.isEmpty()) {
            return false;
        }
        if (System.nanoTime() - deadlineNanos > 0) {
            return true;
        }
        for (Listener listener : gateway.listeners()) {
            if (!listener.connections().isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** The new process went away: connections not yet moved read again here and drain. */
    void abandon() {
        abandoned = true;
        stop();
        ready.clear();
        for (Channel ch : seen) {
            ch.eventLoop().execute(() -> ReadHold.release(ch));
        }
        if (!offered.isEmpty()) {
            log.warn("hot restart: the new process went away; {} connections offered to it stay here", offered.size());
        }
        offered.clear();
    }
}
