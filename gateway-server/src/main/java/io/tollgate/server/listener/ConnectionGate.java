package io.tollgate.server.listener;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.server.drain.ListenerConnections;
import io.tollgate.server.overload.OverloadGuard;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admits a listener's new connections: closes one at once, counted, while the process is
 * overloaded, while the process holds its {@code overload.max_connections}, or while the listener
 * holds its own {@code max_connections} (Envoy's listener and overload manager connection limits).
 * An admitted connection is counted until it closes, and tracked in the listener's
 * {@link ListenerConnections}. Shared by the listener's event loops.
 */
final class ConnectionGate {

    private final int maxConnections;
    private final OverloadGuard overload;
    private final ListenerMetrics metrics;
    private final AtomicInteger open = new AtomicInteger();
    private final ChannelFutureListener release;
    private final ListenerConnections connections;

    /** @param maxConnections the listener's own limit, 0 for none */
    ConnectionGate(int maxConnections, OverloadGuard overload, ListenerMetrics metrics, ListenerConnections connections) {
        this.maxConnections = maxConnections;
        this.connections = connections;
        this.overload = overload;
        this.metrics = metrics;
        this.release = closed -> {
            open.decrementAndGet();
            overload.connectionClosed();
        };
    }

    /**
     * Admits {@code ch}, a connection just accepted, or closes it.
     *
     * @return false when {@code ch} was refused and closed: install nothing on it
     */
    boolean admit(Channel ch) {
        String refusal = refusal();
        if (refusal != null) {
            metrics.connectionRejected(refusal);
            ch.close();
            return false;
        }
        ch.closeFuture().addListener(release);
        connections.add(ch);
        return true;
    }

    /** Why a new connection is refused, or null when it is admitted (and then counted). */
    private String refusal() {
        if (overload.overloaded()) {
            return "overload";
        }
        int nowOpen = open.incrementAndGet();
        if (maxConnections > 0 && nowOpen > maxConnections) {
            open.decrementAndGet();
            return "max_connections";
        }
        if (!overload.tryOpenConnection()) {
            open.decrementAndGet();
            return "process_max_connections";
        }
        return null;
    }
}
