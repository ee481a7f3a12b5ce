package io.tollgate.server.drain;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.util.AttributeKey;
import io.tollgate.core.metrics.ListenerMetrics;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open downstream connections of one listener, so that a drain can reach each of them and
 * knows when the last one closed. A connection is added when the listener admits it and leaves
 * when it closes: one set insertion and removal per connection, nothing per request. Shared by
 * the listener's event loops.
 *
 * <p>A connection whose protocol is not known yet when the drain reaches it (still detecting, or in
 * its TLS handshake) is marked instead; its protocol's {@link DrainableConnection}, once installed,
 * sees the mark ({@link #drainRequested}) and drains from the start.
 */
public final class ListenerConnections {

    private static final AttributeKey<Boolean> DRAIN_REQUESTED = AttributeKey.valueOf("tollgate.drain.requested");

    private final ListenerMetrics metrics;
    private final Set<Channel> open = ConcurrentHashMap.newKeySet();
    private final ChannelFutureListener removal = closed -> closed(closed.channel());
    private volatile CompletableFuture<Void> drained;
    private volatile boolean forcing;

    public ListenerConnections(ListenerMetrics metrics) {
        this.metrics = metrics;
    }

    /** Tracks {@code ch}, a connection just admitted; drains it at once when the listener is draining. */
    public void add(Channel ch) {
        open.add(ch);
        ch.closeFuture().addListener(removal);
        if (drained != null) {
            ch.eventLoop().execute(() -> drain(ch));
        }
    }

    /** The connections open now. */
    public int size() {
        return open.size();
    }

    /** The connections open now, a live view; a hot restart looks for those it can move. */
    public Collection<Channel> open() {
        return Collections.unmodifiableSet(open);
    }

    /**
     * Asks every open connection, and every one admitted from now on, to drain; returns a future
     * completed once none is open. Calling it again returns the same future.
     */
    synchronized CompletableFuture<Void> drain() {
        if (drained != null) {
            return drained;
        }
        CompletableFuture<Void> future = new CompletableFuture<>();
        drained = future;
        for (Channel ch : open) {
            ch.eventLoop().execute(() -> drain(ch));
        }
        if (open.isEmpty()) {
            future.complete(null);
        }
        return future;
    }

    /**
     * Whether a drain reached {@code ch} before its protocol was installed: the protocol's
     * {@link DrainableConnection} then drains from the start, serving what the client sent first.
     */
    public static boolean drainRequested(Channel ch) {
        return ch.hasAttr(DRAIN_REQUESTED);
    }

    /**
     * The connections still open, from now on counted as closed at the drain's timeout; the caller
     * closes them.
     */
    List<Channel> unfinished() {
        forcing = true;
        List<Channel> left = List.copyOf(open);
        if (!left.isEmpty()) {
            metrics.drainTimedOut(left.size());
        }
        return left;
    }

    private void closed(Channel ch) {
        if (!open.remove(ch)) {
            return;
        }
        CompletableFuture<Void> future = drained;
        if (future == null) {
            return;
        }
        if (!forcing) {
            metrics.drainClosed();
        }
        if (open.isEmpty()) {
            future.complete(null);
        }
    }

    /** On {@code ch}'s event loop: drains it, or marks it while its protocol is not known yet. */
    private static void drain(Channel ch) {
        if (!ch.isActive()) {
            return;
        }
        DrainableConnection connection = drainable(ch);
        if (connection != null) {
            connection.drain();
            return;
        }
        ch.attr(DRAIN_REQUESTED).set(Boolean.TRUE);
    }

    private static DrainableConnection drainable(Channel ch) {
        for (Map.Entry<String, ChannelHandler> entry : ch.pipeline()) {
            if (entry.getValue() instanceof DrainableConnection connection) {
                return connection;
            }
        }
        return null;
    }
}
