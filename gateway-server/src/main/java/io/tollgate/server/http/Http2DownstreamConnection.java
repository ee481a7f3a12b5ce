package io.tollgate.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.HttpConversionUtil;
import io.netty.handler.codec.http2.InboundHttpToHttp2Adapter;
import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.core.metrics.ConnectionErrorMeters;
import io.tollgate.protocols.http2.Http2Codecs;
import io.tollgate.server.drain.DrainableConnection;
import io.tollgate.server.drain.ListenerConnections;
import io.tollgate.server.transport.Http2Multiplexer;
import io.tollgate.server.transport.Http2StreamFrameListener;
import java.nio.channels.ClosedChannelException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A downstream HTTP/2 connection, as the one handler of its pipeline: Netty's connection handler
 * (frames in and out, every protocol limit {@link Http2Codecs#server} sets) whose frames go
 * straight to light {@link Http2DownstreamStream}s, with no frame objects, child channels or
 * pipeline events between. Streams write through the encoder, and the connection is flushed once
 * per event-loop pass however many streams wrote in it.
 *
 * <p>It also counts the connection in the listener's metrics, widens the connection's
 * flow-control window so that one paused stream does not stall the others, closes the connection
 * when nothing was read for the idle timeout and no stream is open (watched here rather than by an
 * {@code IdleStateHandler}, which every frame written would pass through) or when its preface and
 * first SETTINGS frame do not arrive within {@code http2.first_frame_timeout}, and drains it on
 * demand ({@link Http2Drain}: GOAWAY twice, then close when the last stream ends). It keeps the
 * stream states of RFC 9113 where Netty's decoder is lenient ({@link Http2ClientStreamIds}) and
 * refuses a request head without the pseudo-headers a request needs ({@link Http2RequestHeads}).
 */
final class Http2DownstreamConnection extends Http2Multiplexer<Http2DownstreamStream> implements DrainableConnection {

    private final HttpProxy proxy;
    private final boolean upgraded;
    private final long holdNanos;
    private final long idleNanos;
    private final Http2StreamFrameListener frames = new Http2StreamFrameListener(this) {
        @Override
        public void onPingAckRead(ChannelHandlerContext ctx, long data) {
            if (drain != null) {
                drain.pingAcked(data);
            }
        }

        /** Netty applied the acknowledged SETTINGS, its stream limit among them: lifted again (see {@link #maxStreams}). */
        @Override
        public void onSettingsAckRead(ChannelHandlerContext ctx) {
            liftNettyStreamLimit();
        }
    };
    private final Runnable idleCheck = this::checkIdle;
    private final Http2ClientStreamIds streamIds;
    /**
     * SETTINGS_MAX_CONCURRENT_STREAMS, enforced here rather than by Netty: Netty refuses a stream
     * past it without creating it, and then takes the client's frames in flight on that stream
     * (its DATA, its trailers) for frames on a stream that never existed, a connection error.
     * Created and reset here, the refused stream is closed, and those frames are ignored as RFC
     * 9113 section 5.1 asks.
     */
    private final long maxStreams;
    private ChannelHandlerContext ctx;
    private PeerAddress peer;
    private ScheduledFuture<?> idleTimer;
    private ScheduledFuture<?> firstFrameTimer;
    private Http2Drain drain;

    /** @param upgraded whether the connection began as HTTP/1.1, whose handler already counted it */
    Http2DownstreamConnection(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder,
            Http2Settings initialSettings, HttpProxy proxy, boolean upgraded) {
        super(decoder, encoder, initialSettings);
        this.proxy = proxy;
        this.upgraded = upgraded;
        this.holdNanos = proxy.listenerConfig().http2().windowHoldTimeout().toNanos();
        this.idleNanos = proxy.listenerConfig().http().idleTimeout().toNanos();
        this.streamIds = new Http2ClientStreamIds(connection(), upgraded);
        this.maxStreams = proxy.listenerConfig().http2().maxConcurrentStreams();
        decoder.frameListener(frames);
        connection().addListener(new Http2ConnectionAdapter() {
            @Override
            public void onStreamClosed(Http2Stream stream) {
                if (drain != null) {
                    drain.streamClosed();
                }
            }
        });
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        this.peer = new PeerAddress(ctx.channel());
        super.handlerAdded(ctx);
        liftNettyStreamLimit();
        if (!upgraded) {
            proxy.listenerMetrics().connectionOpened();
        }
        widenConnectionWindow(Http2Codecs.connectionWindowIncrement(proxy.listenerConfig().http2()));
        if (idleNanos > 0) {
            scheduleIdleCheck(idleNanos);
        }
        if (!upgraded) {
            firstFrameTimer = ctx.executor().schedule(this::checkFirstFrame,
                    proxy.listenerConfig().http2().firstFrameTimeout().toNanos(), TimeUnit.NANOSECONDS);
        }
        if (ListenerConnections.drainRequested(ctx.channel())) {
            ctx.executor().execute(this::drain);
        }
    }

    /** Closes a connection whose preface and first SETTINGS frame did not arrive in time. */
    private void checkFirstFrame() {
        firstFrameTimer = null;
        if (!decoder().prefaceReceived() && ctx.channel().isActive()) {
            proxy.listenerMetrics().connectionRejected("first_frame_timeout");
            ctx.channel().close();
        }
    }

    /**
     * The h2c upgrade: the request that asked for it becomes stream 1, fed to the streams as if it
     * had come in frames.
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (!(evt instanceof HttpServerUpgradeHandler.UpgradeEvent)) {
            super.userEventTriggered(ctx, evt);
            return;
        }
        HttpServerUpgradeHandler.UpgradeEvent upgrade = (HttpServerUpgradeHandler.UpgradeEvent) evt;
        try {
            FullHttpRequest request = upgrade.upgradeRequest();
            request.headers().setInt(HttpConversionUtil.ExtensionHeaderNames.STREAM_ID.text(),
                    Http2CodecUtil.HTTP_UPGRADE_STREAM_ID);
            new InboundHttpToHttp2Adapter(connection(), frames).channelRead(ctx, request.retain());
        } finally {
            upgrade.release();
        }
    }

    /** Closing the connection ends every stream still open, through {@link Http2DownstreamStream#closed}. */
    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        proxy.listenerMetrics().connectionClosed();
        if (drain != null) {
            drain.connectionClosed();
        }
        idleTimer = cancel(idleTimer);
        firstFrameTimer = cancel(firstFrameTimer);
        super.channelInactive(ctx);
    }

    /** Starts a graceful drain ({@link Http2Drain}) with no limit of its own: the drain's timeout closes what is left. */
    @Override
    public void drain() {
        drain(-1);
    }

    /**
     * Starts a graceful drain ({@link Http2Drain}), closing the connection after {@code timeoutNanos}
     * at the latest (negative: no limit). MUST run on the event loop.
     */
    void drain(long timeoutNanos) {
        if (drain != null || !ctx.channel().isActive()) {
            return;
        }
        drain = Http2Drain.start(this, ctx, timeoutNanos);
    }

    /**
     * Reads the client's frames, first through {@link Http2ClientStreamIds}: when it finds a
     * HEADERS frame that is a connection error, the frames before it are decoded, then the
     * connection ends with that error.
     */
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        int start = in.readerIndex();
        int stop = streamIds.scan(in);
        if (stop < 0) {
            super.decode(ctx, in, out);
            streamIds.consumed(in.readerIndex() - start);
            return;
        }
        int end = in.writerIndex();
        in.writerIndex(start + stop);
        try {
            super.decode(ctx, in, out);
        } finally {
            in.writerIndex(end);
        }
        in.skipBytes(in.readableBytes());
        proxy.listenerMetrics().error("h2_stream_id");
        onError(ctx, false, Http2Exception.connectionError(streamIds.error(), "HEADERS on stream %d: %s",
                streamIds.errorStream(), streamIds.error() == Http2Error.PROTOCOL_ERROR
                        ? "lower than a stream opened before (RFC 9113 5.1.1)" : "the stream is closed (RFC 9113 5.1)"));
    }

    /** Remembers the streams reset here, on which the client's frames in flight are no error. */
    @Override
    public ChannelFuture resetStream(ChannelHandlerContext ctx, int streamId, long errorCode, ChannelPromise promise) {
        streamIds.resetSent(streamId);
        return super.resetStream(ctx, streamId, errorCode, promise);
    }

    /**
     * HEADERS on a half-closed (remote) stream is STREAM_CLOSED (RFC 9113 5.1), where Netty says
     * PROTOCOL_ERROR. The stream is reset: the client's frames in flight on it are no error, even
     * when Netty resets a stream it never created (one opened after the gateway's GOAWAY).
     */
    @Override
    protected void onStreamError(ChannelHandlerContext ctx, boolean outbound, Throwable cause,
            Http2Exception.StreamException http2Ex) {
        streamIds.resetSent(http2Ex.streamId());
        Http2Exception.StreamException error = http2Ex;
        if (!outbound && http2Ex.error() == Http2Error.PROTOCOL_ERROR && streamIds.halfClosedHeaders(http2Ex.streamId())) {
            error = (Http2Exception.StreamException) Http2Exception.streamError(http2Ex.streamId(),
                    Http2Error.STREAM_CLOSED, cause, "HEADERS on half-closed (remote) stream %d", http2Ex.streamId());
        }
        super.onStreamError(ctx, outbound, cause, error);
    }

    /** HEADERS from the client on {@code streamId}: the request head (opening the stream), or its trailers. */
    @Override
    protected void headersRead(int streamId, Http2Headers headers, boolean endStream) {
        Http2Stream stream = connection().stream(streamId);
        Http2DownstreamStream downstream = streamOf(stream);
        if (downstream == null) {
            if (connection().remote().numActiveStreams() > maxStreams) {
                proxy.listenerMetrics().error("h2_refused_stream");
                resetStream(ctx, streamId, Http2Error.REFUSED_STREAM.code(), ctx.newPromise());
                return;
            }
            if (!Http2RequestHeads.complete(headers)) {
                proxy.listenerMetrics().error("h2_malformed_request");
                resetStream(ctx, streamId, Http2Error.PROTOCOL_ERROR.code(), ctx.newPromise());
                return;
            }
            downstream = new Http2DownstreamStream(this, stream);
            attach(stream, downstream);
        }
        joinReadBatch(downstream);
        downstream.headers(headers, endStream);
    }

    /**
     * DATA from the client on an open stream; {@code data} is the decoder's, retained here for the
     * stream. The bytes return to the client's windows as the stream forwards them.
     *
     * @return the bytes to return to the client's windows at once: none
     */
    @Override
    protected int dataRead(int streamId, ByteBuf data, int padding, boolean endStream) {
        Http2DownstreamStream downstream = streamOf(connection().stream(streamId));
        joinReadBatch(downstream);
        downstream.data(data.retain(), data.readableBytes() + padding, endStream);
        return 0;
    }

    private void liftNettyStreamLimit() {
        connection().remote().maxActiveStreams(Integer.MAX_VALUE);
    }

    HttpProxy proxy() {
        return proxy;
    }

    @Override
    protected ConnectionErrorMeters connectionErrors() {
        return proxy.listenerMetrics().connectionErrors();
    }

    long holdNanos() {
        return holdNanos;
    }

    EventLoop eventLoop() {
        return ctx.channel().eventLoop();
    }

    ByteBufAllocator alloc() {
        return ctx.alloc();
    }

    PeerAddress peer() {
        return peer;
    }

    /**
     * Returns {@code bytes} of request data to the client's windows ({@link #consumeBytes}). The
     * request of an h2c upgrade came before HTTP/2 and its flow control: it has nothing to return.
     */
    void consume(Http2Stream stream, int bytes) {
        if (upgraded && stream.id() == Http2CodecUtil.HTTP_UPGRADE_STREAM_ID) {
            return;
        }
        consumeBytes(stream, bytes);
    }

    /** A failed future for a write to a stream that can take no more. */
    ChannelFuture closedFuture() {
        return ctx.newFailedFuture(new ClosedChannelException());
    }

    /**
     * Closes the connection (GOAWAY first) when nothing was read for the idle timeout and no
     * stream is open; otherwise looks again when the timeout could next have passed.
     */
    private void checkIdle() {
        long idleFor = System.nanoTime() - lastReadNanos();
        if (idleFor < idleNanos) {
            scheduleIdleCheck(idleNanos - idleFor);
            return;
        }
        if (connection().numActiveStreams() == 0) {
            idleTimer = null;
            ctx.channel().close();
            return;
        }
        scheduleIdleCheck(idleNanos);
    }

    private void scheduleIdleCheck(long delayNanos) {
        idleTimer = ctx.executor().schedule(idleCheck, delayNanos, TimeUnit.NANOSECONDS);
    }

    private static ScheduledFuture<?> cancel(ScheduledFuture<?> timer) {
        if (timer != null) {
            timer.cancel(false);
        }
        return null;
    }
}
