package io.tollgate.server.upstream.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.core.config.Http2Options;
import io.tollgate.protocols.http2.Http2Codecs;
import io.tollgate.server.transport.Http2Multiplexer;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import io.tollgate.core.metrics.ConnectionErrorMeters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pooled HTTP/2 connection to an upstream host, as the one handler of its pipeline: Netty's
 * connection handler (every limit {@link Http2Codecs#client} sets) whose frames go straight to
 * light {@link Http2UpstreamStream}s, each serving one request, written to the encoder and flushed
 * once per event-loop pass however many streams wrote in it.
 *
 * <p>It counts its streams against the host's SETTINGS_MAX_CONCURRENT_STREAMS; stops taking
 * streams on GOAWAY (Netty closes the streams above its last stream id, which their exchanges hear
 * as refused, and the others finish) and closes once the last stream ended; widens the
 * connection's receive window to {@link Http2Codecs#connectionWindowIncrement four stream windows};
 * checks liveness with PING: after a heartbeat interval without reading anything it pings, and
 * when the next interval passes without reading anything it closes the connection, failing its
 * streams at once instead of at their timeouts (watched by a timer rather than an
 * {@code IdleStateHandler}, which every frame written would pass through). Streams the host opens
 * itself (server push is disabled) are refused.
 */
final class Http2UpstreamConnection extends Http2Multiplexer<Http2UpstreamStream> {

    private static final Logger log = LoggerFactory.getLogger(Http2UpstreamConnection.class);
    private static final long PING_PAYLOAD = 0x746f6c6c67617465L;

    private final Http2ConnectionPool pool;
    private final int connectionWindowIncrement;
    private final long heartbeatNanos;
    private final Runnable heartbeatCheck = this::checkHeartbeat;
    private ChannelHandlerContext ctx;
    private ScheduledFuture<?> heartbeatTimer;
    private boolean ready;
    private boolean draining;
    private boolean streamIdsExhausted;
    private boolean pingOutstanding;
    /** Whether the connection failed with an I/O error (a reset), rather than closing cleanly. */
    private boolean reset;
    private long pingSentNanos;
    private long maxStreams = Long.MAX_VALUE;
    /** Streams handed out and not yet ended, whether or not their HEADERS went out yet. */
    private int open;

    /** @param heartbeat how long the connection may read nothing before it pings; zero for never */
    Http2UpstreamConnection(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder,
            Http2Settings initialSettings, Http2ConnectionPool pool, Http2Options options, Duration heartbeat) {
        super(decoder, encoder, initialSettings);
        this.pool = pool;
        this.connectionWindowIncrement = Http2Codecs.connectionWindowIncrement(options);
        this.heartbeatNanos = heartbeat.toNanos();
        decoder.frameListener(new Http2UpstreamFrameListener(this));
    }

    /** Whether a new stream may be opened now. */
    boolean hasCapacity() {
        return takesStreams() && open < maxStreams;
    }

    /** Whether the connection takes new streams when it has room: ready, open, and not going away. */
    boolean takesStreams() {
        return ready && !retiring() && ctx.channel().isActive();
    }

    /** Opens a stream for {@code acquirer}; the caller checked {@link #hasCapacity()}. */
    void openStream(UpstreamPool.Acquirer acquirer) {
        open++;
        acquirer.acquired(new Http2UpstreamStream(this));
    }

    /** Takes no new streams (its pool is retired) and closes once the open ones have ended. */
    void drain() {
        draining = true;
        if (open == 0) {
            ctx.channel().close();
        }
    }

    @Override
    protected ConnectionErrorMeters connectionErrors() {
        return pool.connectionErrors();
    }

    /** Closes the connection when it is ready and carries no stream: its host died. */
    void closeIfIdle() {
        if (ready && open == 0) {
            ctx.channel().close();
        }
    }

    Http2ConnectionPool pool() {
        return pool;
    }

    EventLoop eventLoop() {
        return ctx.channel().eventLoop();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        super.handlerAdded(ctx);
    }

    /** The connection preface went out (Netty sends it as the channel becomes active): the window follows. */
    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        super.channelActive(ctx);
        widenConnectionWindow(connectionWindowIncrement);
        if (heartbeatNanos > 0) {
            scheduleHeartbeat(heartbeatNanos);
        }
    }

    /** Closing the connection ends every stream still open, through {@link Http2UpstreamStream#closed}. */
    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (heartbeatTimer != null) {
            heartbeatTimer.cancel(false);
            heartbeatTimer = null;
        }
        super.channelInactive(ctx);
        pool.closed(this, ready, reset);
    }

    /** An I/O error (the host reset the connection) tells the pool, once closed, that its host died. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        if (cause instanceof IOException) {
            reset = true;
        }
        super.exceptionCaught(ctx, cause);
    }

    /**
     * Writes a stream's first HEADERS, which gives it its id. Returns the codec's stream, or null
     * when the stream could not be created (the connection closed, is going away, or ran out of
     * stream ids), so that the request never left.
     */
    Http2Stream writeFirstHeaders(Http2UpstreamStream upstream, Http2Headers headers, boolean endStream) {
        int id = connection().local().incrementAndGetNextStreamId();
        if (id < 0) {
            streamIdsExhausted = true;
            return null;
        }
        ChannelFuture written = encoder().writeHeaders(ctx, id, headers, 0, endStream, ctx.newPromise());
        Http2Stream stream = connection().stream(id);
        if (stream == null) {
            return null;
        }
        if (written.isDone() && !written.isSuccess()) {
            writeReset(stream, Http2Error.CANCEL);
            return null;
        }
        attach(stream, upstream);
        return stream;
    }

    /** HEADERS from the host: a response head, interim head or trailers, or a stream the host opened itself. */
    @Override
    protected void headersRead(int streamId, Http2Headers headers, boolean endStream) {
        Http2Stream stream = connection().stream(streamId);
        Http2UpstreamStream upstream = streamOf(stream);
        if (upstream == null) {
            log.debug("{}: refusing stream {} opened by the host", pool.host(), streamId);
            writeReset(stream, Http2Error.REFUSED_STREAM);
            return;
        }
        joinReadBatch(upstream);
        upstream.headers(headers, endStream);
    }

    /**
     * DATA from the host; {@code data} is the decoder's, retained here for the stream, which
     * returns the bytes to the host's windows as the exchange reads them.
     *
     * @return the bytes to return to the host's windows at once: all of a stream the gateway does not serve
     */
    @Override
    protected int dataRead(int streamId, ByteBuf data, int padding, boolean endStream) {
        int flowControlled = data.readableBytes() + padding;
        Http2UpstreamStream upstream = streamOf(connection().stream(streamId));
        if (upstream == null) {
            return flowControlled;
        }
        joinReadBatch(upstream);
        upstream.data(data.retain(), flowControlled, endStream);
        return 0;
    }

    /** RST_STREAM from the host; Netty closes the stream right after. */
    void resetRead(int streamId, long errorCode) {
        Http2UpstreamStream upstream = streamOf(connection().stream(streamId));
        if (upstream != null) {
            upstream.resetByHost(errorCode);
        }
    }

    /** The host's SETTINGS (Netty applied and acknowledged them): the first make the connection ready. */
    void settingsRead(Http2Settings settings) {
        Long max = settings.maxConcurrentStreams();
        if (max != null) {
            maxStreams = max;
        }
        if (!ready) {
            ready = true;
            pool.ready(this);
            return;
        }
        pool.capacityChanged();
    }

    /** GOAWAY from the host; Netty already closed the streams above {@code lastStreamId}. */
    void goAwayRead(int lastStreamId, long errorCode) {
        log.debug("{}: GOAWAY {} after stream {}", pool.host(), errorCode, lastStreamId);
        if (open == 0) {
            ctx.channel().close();
            return;
        }
        pool.capacityChanged();
    }

    /** Called once by each stream when it ended: closed, or released before its HEADERS went out. */
    void streamEnded() {
        open--;
        if (retiring() && open == 0) {
            ctx.channel().close();
            return;
        }
        pool.capacityChanged();
    }

    /** Whether a stream closed now was refused: it is above the last stream id of a GOAWAY from the host. */
    boolean refusedByGoAway(int streamId) {
        return connection().goAwayReceived() && streamId > connection().local().lastStreamKnownByPeer();
    }

    private boolean retiring() {
        return draining || streamIdsExhausted || connection().goAwayReceived();
    }

    /**
     * Closes the connection when nothing was read since the last ping, an interval ago; pings when
     * nothing was read for the heartbeat interval; otherwise looks again when the interval could
     * next have passed.
     */
    private void checkHeartbeat() {
        long lastRead = lastReadNanos();
        if (pingOutstanding && lastRead - pingSentNanos < 0) {
            log.debug("{}: no answer to PING, closing", pool.host());
            heartbeatTimer = null;
            ctx.channel().close();
            return;
        }
        pingOutstanding = false;
        long now = System.nanoTime();
        long idleFor = now - lastRead;
        if (idleFor < heartbeatNanos) {
            scheduleHeartbeat(heartbeatNanos - idleFor);
            return;
        }
        pingOutstanding = true;
        pingSentNanos = now;
        encoder().writePing(ctx, false, PING_PAYLOAD, ctx.voidPromise());
        flush(ctx);
        scheduleHeartbeat(heartbeatNanos);
    }

    private void scheduleHeartbeat(long delayNanos) {
        heartbeatTimer = ctx.executor().schedule(heartbeatCheck, delayNanos, TimeUnit.NANOSECONDS);
    }
}
