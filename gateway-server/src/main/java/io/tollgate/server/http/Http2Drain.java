package io.tollgate.server.http;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The graceful drain of one downstream HTTP/2 connection, in the two steps of RFC 9113 section
 * 6.8: a first GOAWAY (NO_ERROR) with the largest stream id, 2^31-1, and a PING tell the client to
 * open no more streams while every stream it may already have sent is still accepted; once the
 * PING is answered (one round trip: whatever the client sent before the GOAWAY has arrived), or at
 * the latest after {@link #FINAL_GOAWAY_DELAY_MILLIS}, a second GOAWAY names the last stream
 * really opened. The streams open by then all finish, and the connection closes when the last one
 * ended (or at the timeout, when one was given).
 *
 * <p>The one-step GOAWAY this replaces named the last stream opened at once: a request the client
 * had sent just before reading it was then neither served nor refused, and waited until the
 * connection closed under it.
 */
public final class Http2Drain {

    /** The opaque data of the drain's PING, told apart from any other PING answered. */
    static final long PING_DATA = 0x746f6c6c64726169L;
    /** The longest wait for the PING's answer before the final GOAWAY goes anyway. */
    static final long FINAL_GOAWAY_DELAY_MILLIS = 1000;

    private final Http2DownstreamConnection connection;
    private final ChannelHandlerContext ctx;
    private boolean finalGoAwaySent;
    private ScheduledFuture<?> finalGoAwayTimer;
    private ScheduledFuture<?> timeoutTimer;

    private Http2Drain(Http2DownstreamConnection connection, ChannelHandlerContext ctx) {
        this.connection = connection;
        this.ctx = ctx;
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

    /**
     * Sends the first GOAWAY and the PING; on the event loop.
     *
     * @param timeoutNanos how long the streams may take before the connection closes anyway; negative for no limit
     */
    static Http2Drain start(Http2DownstreamConnection connection, ChannelHandlerContext ctx, long timeoutNanos) {
        Http2Drain drain = new Http2Drain(connection, ctx);
        connection.goAway(ctx, Integer.MAX_VALUE, Http2Error.NO_ERROR.code(), Unpooled.EMPTY_BUFFER, ctx.newPromise());
        connection.encoder().writePing(ctx, false, PING_DATA, ctx.newPromise());
        connection.flush(ctx);
        drain.finalGoAwayTimer = ctx.executor().schedule(drain::sendFinalGoAway, FINAL_GOAWAY_DELAY_MILLIS,
                TimeUnit.MILLISECONDS);
        if (timeoutNanos >= 0) {
            drain.timeoutTimer = ctx.executor().schedule(() -> ctx.close(), timeoutNanos, TimeUnit.NANOSECONDS);
        }
        return drain;
    }

    /** The client answered a PING carrying {@code data}. */
    void pingAcked(long data) {
        if (data == PING_DATA) {
            sendFinalGoAway();
        }
    }

    /** A stream ended: the connection closes once the final GOAWAY went out and no stream is left. */
    void streamClosed() {
        closeIfDone();
    }

    /** The connection closed: the timers have nothing left to do. */
    void connectionClosed() {
        cancel(finalGoAwayTimer);
        cancel(timeoutTimer);
    }

    private void sendFinalGoAway() {
        if (finalGoAwaySent || !ctx.channel().isActive()) {
            return;
        }
        finalGoAwaySent = true;
        cancel(finalGoAwayTimer);
        connection.goAway(ctx, connection.connection().remote().lastStreamCreated(), Http2Error.NO_ERROR.code(),
                Unpooled.EMPTY_BUFFER, ctx.newPromise());
        connection.flush(ctx);
        closeIfDone();
    }

    private void closeIfDone() {
        if (finalGoAwaySent && connection.connection().numActiveStreams() == 0 && ctx.channel().isActive()) {
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> ctx.close());
        }
    }

    private static void cancel(ScheduledFuture<?> timer) {
        if (timer != null) {
            timer.cancel(false);
        }
    }
}
