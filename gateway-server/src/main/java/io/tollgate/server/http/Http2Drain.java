package io.tollgate.server.http;

import static java.util.Objects.requireNonNull;

import io.netty.channel.Channel;
import java.time.Duration;

/**
 * Drains a downstream HTTP/2 connection: GOAWAY (NO_ERROR, naming the last stream the client
 * opened) tells the client to send new requests elsewhere (the codec refuses any newer stream),
 * the streams already open finish, and the connection closes when the last one ends, or when the
 * timeout passes. For the drain of a whole listener.
 */
public final class Http2Drain {

    private Http2Drain() {
    }

    /**
     * Starts draining {@code connection} if it speaks HTTP/2 and returns true; returns false,
     * doing nothing, for a connection of another protocol. Safe from any thread.
     *
     * @param timeout how long the open streams may take before the connection closes anyway
     */
    public static boolean goAway(Channel connection, Duration timeout) {
        requireNonNull(connection, "connection");
        requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout: " + timeout + " (expected: >= 0)");
        }
        Http2DownstreamConnection http2 = connection.pipeline().get(Http2DownstreamConnection.class);
        if (http2 == null) {
            return false;
        }
        long timeoutNanos = timeout.toNanos();
        connection.eventLoop().execute(() -> http2.drain(timeoutNanos));
        return true;
    }
}
