package io.tollgate.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2GoAwayFrame;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2FrameStreamEvent;
import io.netty.handler.codec.http2.Http2FrameStreamException;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import io.netty.util.concurrent.ScheduledFuture;
import io.tollgate.protocols.http2.Http2Codecs;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a downstream HTTP/2 connection, right after Netty's frame codec (which
 * enforces every protocol limit): it hands each stream's frames to a light
 * {@link Http2DownstreamStream} instead of a child channel, writes the streams' responses as
 * frames straight to the codec and flushes the connection once per event-loop pass however many
 * streams wrote in it. It also counts the connection in the listener's metrics, widens the
 * connection's flow-control window so that one paused stream does not stall the others, closes
 * the connection when it idles with no stream open, and drains it on demand (GOAWAY, then close
 * when the last stream ends or the drain timeout passes).
 */
final class Http2DownstreamConnection extends ChannelInboundHandlerAdapter implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(Http2DownstreamConnection.class);

    private final HttpProxy proxy;
    private final boolean upgraded;
    private final long holdNanos;
    private final IntObjectMap<Http2DownstreamStream> streams = new IntObjectHashMap<>();
    private final List<Http2DownstreamStream> readBatch = new ArrayList<>();
    private ChannelHandlerContext ctx;
    private Http2FrameCodec codec;
    private Http2RemoteFlowController flow;
    private PeerAddress peer;
    private boolean flushQueued;
    private boolean draining;
    private ScheduledFuture<?> drainTimer;

    /** @param upgraded whether the connection began as HTTP/1.1, whose handler already counted it */
    Http2DownstreamConnection(HttpProxy proxy, boolean upgraded) {
        this.proxy = proxy;
        this.upgraded = upgraded;
        this.holdNanos = proxy.listenerConfig().http2().windowHoldTimeout().toNanos();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.codec = ctx.pipeline().get(Http2FrameCodec.class);
        this.flow = codec.connection().remote().flowController();
        this.peer = new PeerAddress(ctx.channel());
        if (!upgraded) {
            proxy.listenerMetrics().connectionOpened();
        }
        int increment = Http2Codecs.connectionWindowIncrement(proxy.listenerConfig().http2());
        if (increment > 0) {
            ctx.writeAndFlush(new DefaultHttp2WindowUpdateFrame(increment), ctx.voidPromise());
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Http2HeadersFrame) {
            Http2HeadersFrame frame = (Http2HeadersFrame) msg;
            Http2DownstreamStream stream = streams.get(frame.stream().id());
            if (stream == null) {
                stream = open(frame.stream());
            }
            if (stream != null) {
                joinReadBatch(stream);
                stream.headers(frame);
            }
            return;
        }
        if (msg instanceof Http2DataFrame) {
            Http2DataFrame frame = (Http2DataFrame) msg;
            Http2DownstreamStream stream = streams.get(frame.stream().id());
            if (stream == null) {
                writeWindowUpdate(frame.stream(), frame.initialFlowControlledBytes());
                frame.release();
                return;
            }
            joinReadBatch(stream);
            stream.data(frame);
            return;
        }
        ReferenceCountUtil.release(msg);
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
            if (codec.connection().numActiveStreams() == 0) {
                ctx.close();
            }
            return;
        }
        ReferenceCountUtil.release(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        proxy.listenerMetrics().connectionClosed();
        cancelDrainTimer();
        List<Http2DownstreamStream> open = new ArrayList<>(streams.values());
        streams.clear();
        for (Http2DownstreamStream stream : open) {
            stream.closed();
        }
    }

    /**
     * An {@link Http2Exception} is left to the codec, which answers it with the right RST_STREAM
     * or GOAWAY code; closing here first would send a graceful GOAWAY with NO_ERROR instead. A
     * stream's error ({@link Http2FrameStreamException}, e.g. a body longer than its
     * content-length) concerns that stream alone: the codec leaves it to us, and it is reset.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("downstream HTTP/2 connection {} failed", ctx.channel().remoteAddress(), cause);
        if (cause instanceof Http2FrameStreamException) {
            resetAfterError((Http2FrameStreamException) cause);
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
     * Starts a graceful drain: GOAWAY (NO_ERROR, naming the last stream the client opened) so
     * that the client sends new requests elsewhere, the open streams finish, and the connection
     * closes when the last one ends or after {@code timeoutNanos}. MUST run on the event loop.
     */
    void drain(long timeoutNanos) {
        if (draining || !ctx.channel().isActive()) {
            return;
        }
        draining = true;
        ctx.writeAndFlush(new DefaultHttp2GoAwayFrame(Http2Error.NO_ERROR), ctx.voidPromise());
        drainTimer = ctx.executor().schedule(() -> ctx.close(), timeoutNanos, TimeUnit.NANOSECONDS);
        closeIfDrained();
    }

    HttpProxy proxy() {
        return proxy;
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

    /** Whether {@code stream} takes response bytes now: its window has room and the socket too. */
    boolean isWritable(Http2Stream stream) {
        return ctx.channel().isWritable() && flow.isWritable(stream);
    }

    ChannelFuture writeHeaders(Http2FrameStream stream, Http2Headers headers, boolean endStream, boolean track) {
        return write(new DefaultHttp2HeadersFrame(headers, endStream).stream(stream), track);
    }

    /** Writes {@code content} (ownership passes) as a DATA frame. */
    ChannelFuture writeData(Http2FrameStream stream, ByteBuf content, boolean endStream, boolean track) {
        return write(new DefaultHttp2DataFrame(content, endStream).stream(stream), track);
    }

    void writeReset(Http2FrameStream stream, Http2Error error) {
        write(new DefaultHttp2ResetFrame(error).stream(stream), false);
        flushSoon();
    }

    /** Returns {@code bytes} of request data to the client's stream and connection windows. */
    void writeWindowUpdate(Http2FrameStream stream, int bytes) {
        if (bytes > 0) {
            write(new DefaultHttp2WindowUpdateFrame(bytes).stream(stream), false);
        }
    }

    /** A failed future for a write to a stream that can take no more. */
    ChannelFuture closedFuture() {
        return ctx.newFailedFuture(new ClosedChannelException());
    }

    /**
     * Flushes the connection once the event loop has handled the I/O it is working through, so
     * that responses finished in the same pass leave in one write; MUST be called on the event loop.
     */
    void flushSoon() {
        if (flushQueued) {
            return;
        }
        flushQueued = true;
        ctx.channel().eventLoop().execute(this);
    }

    private ChannelFuture write(Object frame, boolean track) {
        if (track) {
            return ctx.write(frame);
        }
        ctx.write(frame, ctx.voidPromise());
        return null;
    }

    /** A new stream from the client; null when the codec already dropped it. */
    private Http2DownstreamStream open(Http2FrameStream frameStream) {
        Http2Stream stream = codec.connection().stream(frameStream.id());
        if (stream == null) {
            return null;
        }
        Http2DownstreamStream opened = new Http2DownstreamStream(this, frameStream, stream);
        streams.put(frameStream.id(), opened);
        return opened;
    }

    private void joinReadBatch(Http2DownstreamStream stream) {
        if (stream.joinReadBatch()) {
            readBatch.add(stream);
        }
    }

    private void streamEvent(Http2FrameStreamEvent event) {
        Http2FrameStream frameStream = event.stream();
        Http2DownstreamStream stream = streams.get(frameStream.id());
        if (stream == null) {
            return;
        }
        if (event.type() == Http2FrameStreamEvent.Type.Writability) {
            stream.writabilityChanged();
            return;
        }
        if (frameStream.state() == Http2Stream.State.CLOSED) {
            streams.remove(frameStream.id());
            stream.closed();
            closeIfDrained();
        }
    }

    private void resetAfterError(Http2FrameStreamException error) {
        Http2FrameStream frameStream = error.stream();
        Http2DownstreamStream stream = streams.get(frameStream.id());
        if (stream != null) {
            stream.reset(error.error());
        } else if (frameStream.state() != Http2Stream.State.CLOSED) {
            writeReset(frameStream, error.error());
        }
    }

    private void closeIfDrained() {
        if (draining && streams.isEmpty() && codec.connection().numActiveStreams() == 0) {
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> ctx.close());
        }
    }

    private void cancelDrainTimer() {
        if (drainTimer != null) {
            drainTimer.cancel(false);
            drainTimer = null;
        }
    }
}
