package io.tollgate.server.drain;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.tollgate.core.metrics.ListenerMetrics;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The open downstream connections of one listener, so that a drain can reach each of them and
 * knows when the last one closed. A connection is added when the listener admits it and leaves
 * when it closes: one set insertion and removal per connection, nothing per request. Shared by
 * the listener's event loops.
 */
public final class ListenerConnections {

    /** How soon a connection whose protocol is not known yet (still detecting, TLS handshake) is looked at again. */
    private static final long UNKNOWN_PROTOCOL_RETRY_MILLIS = 50;

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

    /** Closes every connection still open, counted as closed at the drain's timeout; returns how many. */
    int closeAll() {
        forcing = true;
        int closed = 0;
        for (Channel ch : open) {
            ch.close();
            closed++;
        }
        if (closed > 0) {
            metrics.drainTimedOut(closed);
        }
        return closed;
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

    /** On {@code ch}'s event loop: drains it, or looks again shortly while its protocol is not known yet. */
    private static void drain(Channel ch) {
        if (!ch.isActive()) {
            return;
        }
        DrainableConnection connection = drainable(ch);
        if (connection != null) {
            connection.drain();
            return;
        }
        ch.eventLoop().schedule(() -> drain(ch), UNKNOWN_PROTOCOL_RETRY_MILLIS, TimeUnit.MILLISECONDS);
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
