package io.tollgate.server.upstream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2PingFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2ChannelDuplexHandler;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2FrameStreamEvent;
import io.netty.handler.codec.http2.Http2FrameStreamException;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2LocalFlowController;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pooled HTTP/2 connection to an upstream host, the last handler of its pipeline, right after
 * Netty's frame codec: each request is a light {@link Http2UpstreamStream} instead of a child
 * channel, written as HEADERS and DATA frames straight to the codec, and the connection is flushed
 * once per event-loop pass however many streams wrote in it.
 *
 * <p>It counts its streams against the host's SETTINGS_MAX_CONCURRENT_STREAMS; stops taking
 * streams on GOAWAY (Netty closes the streams above its last stream id, which their exchanges hear
 * as refused, and the others finish) and closes once the last stream ended; checks liveness with
 * PING: after a heartbeat interval without a frame it pings, and when the next interval passes
 * without an answer it closes the connection, failing its streams at once instead of at their
 * timeouts. Streams the host opens itself (server push is disabled) are refused.
 */
final class Http2UpstreamConnection extends Http2ChannelDuplexHandler implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(Http2UpstreamConnection.class);
    private static final long PING_PAYLOAD = 0x746f6c6c67617465L;

    private final Http2ConnectionPool pool;
    private final int connectionWindowIncrement;
    private final IntObjectMap<Http2UpstreamStream> streams = new IntObjectHashMap<>();
    private final List<Http2UpstreamStream> readBatch = new ArrayList<>();
    private ChannelHandlerContext ctx;
    private Http2Connection connection;
    private Http2RemoteFlowController remoteFlow;
    private Http2LocalFlowController localFlow;
    private boolean ready;
    private boolean draining;
    private boolean pingOutstanding;
    private boolean flushQueued;
    private long maxStreams = Long.MAX_VALUE;
    /** Streams handed out and not yet ended, whether or not their HEADERS went out yet. */
    private int open;

    Http2UpstreamConnection(Http2ConnectionPool pool, int connectionWindowIncrement) {
        this.pool = pool;
        this.connectionWindowIncrement = connectionWindowIncrement;
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
        acquirer.acquired(new Http2UpstreamStream(this, newStream()));
    }

    /** Takes no new streams (its pool is retired) and closes once the open ones have ended. */
    void drain() {
        draining = true;
        if (open == 0) {
            ctx.close();
        }
    }

    Http2ConnectionPool pool() {
        return pool;
    }

    EventLoop eventLoop() {
        return ctx.channel().eventLoop();
    }

    @Override
    protected void handlerAdded0(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.connection = ctx.pipeline().get(Http2FrameCodec.class).connection();
        this.remoteFlow = connection.remote().flowController();
        this.localFlow = connection.local().flowController();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (connectionWindowIncrement > 0) {
            ctx.writeAndFlush(new DefaultHttp2WindowUpdateFrame(connectionWindowIncrement), ctx.voidPromise());
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        pingOutstanding = false;
        if (msg instanceof Http2DataFrame) {
            Http2DataFrame frame = (Http2DataFrame) msg;
            Http2UpstreamStream stream = streams.get(frame.stream().id());
            if (stream == null) {
                consume(frame.stream().id(), frame.initialFlowControlledBytes());
                frame.release();
                return;
            }
            joinReadBatch(stream);
            stream.data(frame);
            return;
        }
        if (msg instanceof Http2HeadersFrame) {
            Http2HeadersFrame frame = (Http2HeadersFrame) msg;
            Http2UpstreamStream stream = streams.get(frame.stream().id());
            if (stream == null) {
                refusePushed(frame.stream());
                return;
            }
            joinReadBatch(stream);
            stream.headers(frame);
            return;
        }
        try {
            if (msg instanceof Http2ResetFrame) {
                Http2ResetFrame reset = (Http2ResetFrame) msg;
                Http2UpstreamStream stream = streams.get(reset.stream().id());
                if (stream != null) {
                    stream.resetByHost(reset.errorCode());
                }
            } else if (msg instanceof Http2SettingsFrame) {
                settings((Http2SettingsFrame) msg);
            } else if (msg instanceof Http2GoAwayFrame) {
                goAway((Http2GoAwayFrame) msg);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        for (int i = 0; i < readBatch.size(); i++) {
            readBatch.get(i).readComplete();
        }
        readBatch.clear();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof Http2FrameStreamEvent) {
            streamEvent((Http2FrameStreamEvent) evt);
            return;
        }
        if (evt instanceof IdleStateEvent) {
            heartbeat();
            return;
        }
        ReferenceCountUtil.release(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        List<Http2UpstreamStream> left = new ArrayList<>(streams.values());
        streams.clear();
        for (Http2UpstreamStream stream : left) {
            stream.closed(false);
        }
        pool.closed(this, ready);
    }

    /**
     * An {@link Http2Exception} is left to the codec, which answers it with the right GOAWAY and
     * closes; a stream's error ({@link Http2FrameStreamException}, e.g. a malformed response)
     * concerns that stream alone, which is reset. Anything else closes the connection.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("{}: upstream HTTP/2 connection failed", pool.host(), cause);
        if (cause instanceof Http2FrameStreamException) {
            Http2FrameStreamException error = (Http2FrameStreamException) cause;
            writeReset(error.stream(), error.error());
            return;
        }
        if (!(cause instanceof Http2Exception)) {
            ctx.close();
        }
    }

    /** The queued flush. */
    @Override
    public void run() {
        flushQueued = false;
        ctx.flush();
    }

    /**
     * Writes a stream's first HEADERS, which gives it its id. Returns the codec's stream, or null
     * when the stream could not be created (the connection closed or is going away), so that the
     * request never left.
     */
    Http2Stream writeFirstHeaders(Http2UpstreamStream stream, Http2FrameStream frameStream, Http2Headers headers,
            boolean endStream) {
        ChannelFuture written = ctx.write(new DefaultHttp2HeadersFrame(headers, endStream).stream(frameStream));
        Http2Stream created = connection.stream(frameStream.id());
        if (created == null || (written.isDone() && !written.isSuccess())) {
            return null;
        }
        streams.put(frameStream.id(), stream);
        return created;
    }

    void writeHeaders(Http2FrameStream frameStream, Http2Headers headers, boolean endStream) {
        ctx.write(new DefaultHttp2HeadersFrame(headers, endStream).stream(frameStream), ctx.voidPromise());
    }

    /** Writes {@code content} (ownership passes) as a DATA frame. */
    void writeData(Http2FrameStream frameStream, ByteBuf content, boolean endStream) {
        ctx.write(new DefaultHttp2DataFrame(content, endStream).stream(frameStream), ctx.voidPromise());
    }

    /** Resets a stream unless it is already closed; flushed with the pass. */
    void writeReset(Http2FrameStream frameStream, Http2Error error) {
        if (frameStream.state() == Http2Stream.State.CLOSED || frameStream.state() == Http2Stream.State.IDLE) {
            return;
        }
        ctx.write(new DefaultHttp2ResetFrame(error).stream(frameStream), ctx.voidPromise());
        flushSoon();
    }

    /** Whether {@code stream} takes request bytes now: its window has room and the socket too. */
    boolean isWritable(Http2Stream stream) {
        return ctx.channel().isWritable() && remoteFlow.isWritable(stream);
    }

    /**
     * Returns {@code bytes} of response data to the host's stream and connection windows. The
     * codec refuses only bytes it never counted, a bug of ours, which closes the connection.
     */
    void consume(Http2Stream stream, int bytes) {
        try {
            localFlow.consumeBytes(stream, bytes);
        } catch (Http2Exception e) {
            log.warn("{}: returning {} bytes of flow-control credit failed, closing", pool.host(), bytes, e);
            ctx.close();
        }
    }

    /**
     * Flushes the connection once the event loop has handled the I/O it is working through, so
     * that requests started in the same pass leave in one write; MUST be called on the event loop.
     */
    void flushSoon() {
        if (flushQueued) {
            return;
        }
        flushQueued = true;
        ctx.channel().eventLoop().execute(this);
    }

    /** Called once by each stream when it ended: closed, or released before its HEADERS went out. */
    void streamEnded() {
        open--;
        if (retiring() && open == 0) {
            ctx.close();
            return;
        }
        pool.capacityChanged();
    }

    /** Whether a stream closed now was refused: it is above the last stream id of a GOAWAY from the host. */
    boolean refusedByGoAway(int streamId) {
        return connection.goAwayReceived() && streamId > connection.local().lastStreamKnownByPeer();
    }

    private boolean retiring() {
        return draining || connection.goAwayReceived();
    }

    private void consume(int streamId, int bytes) {
        if (bytes > 0) {
            consume(connection.stream(streamId), bytes);
        }
    }

    private void joinReadBatch(Http2UpstreamStream stream) {
        if (stream.joinReadBatch()) {
            readBatch.add(stream);
        }
    }

    private void streamEvent(Http2FrameStreamEvent event) {
        Http2FrameStream frameStream = event.stream();
        Http2UpstreamStream stream = streams.get(frameStream.id());
        if (stream == null) {
            return;
        }
        if (event.type() == Http2FrameStreamEvent.Type.Writability) {
            stream.writabilityChanged();
            return;
        }
        if (frameStream.state() == Http2Stream.State.CLOSED) {
            streams.remove(frameStream.id());
            stream.closed(refusedByGoAway(frameStream.id()));
        }
    }

    /** A stream the host opened itself (a push, which the gateway disabled): reset at once. */
    private void refusePushed(Http2FrameStream frameStream) {
        log.debug("{}: refusing stream {} opened by the host", pool.host(), frameStream.id());
        writeReset(frameStream, Http2Error.REFUSED_STREAM);
    }

    private void settings(Http2SettingsFrame frame) {
        Long max = frame.settings().maxConcurrentStreams();
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

    private void goAway(Http2GoAwayFrame frame) {
        log.debug("{}: GOAWAY {} after stream {}", pool.host(), frame.errorCode(), frame.lastStreamId());
        if (open == 0) {
            ctx.close();
            return;
        }
        pool.capacityChanged();
    }

    private void heartbeat() {
        if (pingOutstanding) {
            log.debug("{}: no answer to PING, closing", pool.host());
            ctx.close();
            return;
        }
        pingOutstanding = true;
        ctx.writeAndFlush(new DefaultHttp2PingFrame(PING_PAYLOAD), ctx.voidPromise());
    }
}
