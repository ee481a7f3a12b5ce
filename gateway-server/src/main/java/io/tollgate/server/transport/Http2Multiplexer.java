package io.tollgate.server.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.tollgate.core.metrics.ConnectionErrorMeters;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The part both HTTP/2 connection handlers share, downstream and upstream: Netty's connection
 * handler whose streams are light {@link Stream} objects kept on the codec's own streams, with no
 * frame objects, child channels or pipeline events between. Streams write through the encoder
 * with void promises, return flow-control credit when they choose, hear when their writability
 * changes and when they close, and hear once per read batch that the batch ended; the connection
 * is flushed once per event-loop pass however many streams wrote in it.
 *
 * <p>Subclasses give the decoder an {@link Http2StreamFrameListener}, which feeds HEADERS and DATA
 * to {@link #headersRead} and {@link #dataRead}, and MUST run every call here on the connection's
 * event loop.
 *
 * @param <S> the stream type of one side
 */
public abstract class Http2Multiplexer<S extends Http2Multiplexer.Stream> extends Http2ConnectionHandler
        implements Http2RemoteFlowController.Listener {

    private static final Logger log = LoggerFactory.getLogger(Http2Multiplexer.class);

    /** Where each codec stream's {@link Stream} is kept. */
    private final Http2Connection.PropertyKey streamKey;
    private final List<S> readBatch = new ArrayList<>();
    private final Runnable flushTask = this::flushNow;
    private ChannelHandlerContext ctx;
    private boolean flushQueued;
    private long lastReadNanos;

    /** The three arguments {@code Http2Codecs} gives a handler factory. */
    protected Http2Multiplexer(Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder,
            Http2Settings initialSettings) {
        super(decoder, encoder, initialSettings);
        this.streamKey = connection().newKey();
        encoder.flowController().listener(this);
        connection().addListener(new Http2ConnectionAdapter() {
            @Override
            public void onStreamClosed(Http2Stream stream) {
                S closed = stream.getProperty(streamKey);
                if (closed != null) {
                    closed.closed();
                }
            }
        });
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        lastReadNanos = System.nanoTime();
        super.handlerAdded(ctx);
    }

    /** Tells each stream that read something in this batch that the batch ended, then flushes. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        lastReadNanos = System.nanoTime();
        try {
            for (int i = 0; i < readBatch.size(); i++) {
                Stream stream = readBatch.get(i);
                stream.inReadBatch = false;
                stream.readComplete();
            }
        } finally {
            readBatch.clear();
            super.channelReadComplete(ctx);
        }
    }

    /**
     * An {@link Http2Exception} is Netty's to answer with the right RST_STREAM or GOAWAY code; any
     * other failure (the socket's, or a bug) closes the connection, counted and logged by
     * {@link HandlerFailures}.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        if (Http2CodecUtil.getEmbeddedHttp2Exception(cause) != null) {
            super.exceptionCaught(ctx, cause);
            return;
        }
        HandlerFailures.caught(log, ctx.channel(), cause, connectionErrors(), connection().isServer());
        ctx.channel().close();
    }

    /** Where the errors that end this connection are counted. */
    protected abstract ConnectionErrorMeters connectionErrors();

    @Override
    protected void onConnectionError(ChannelHandlerContext ctx, boolean outbound, Throwable cause,
            Http2Exception http2Ex) {
        log.debug("HTTP/2 connection {} failed", ctx.channel(), cause);
        super.onConnectionError(ctx, outbound, cause, http2Ex);
    }

    /** The remote flow controller says {@code stream}'s writability may have changed. */
    @Override
    public final void writabilityChanged(Http2Stream stream) {
        S changed = stream.getProperty(streamKey);
        if (changed != null) {
            changed.writabilityChanged();
        }
    }

    /** Whether {@code stream} takes bytes now: its window has room and the socket too. */
    public final boolean isWritable(Http2Stream stream) {
        return ctx.channel().isWritable() && encoder().flowController().isWritable(stream);
    }

    /**
     * Writes a HEADERS frame; with {@code track} returns the write's future, otherwise writes with
     * a void promise and returns null.
     */
    public final ChannelFuture writeHeaders(Http2Stream stream, Http2Headers headers, boolean endStream,
            boolean track) {
        if (track) {
            return encoder().writeHeaders(ctx, stream.id(), headers, 0, endStream, ctx.newPromise());
        }
        encoder().writeHeaders(ctx, stream.id(), headers, 0, endStream, ctx.voidPromise());
        return null;
    }

    /** Writes {@code content} (ownership passes) as a DATA frame; {@code track} as for {@link #writeHeaders}. */
    public final ChannelFuture writeData(Http2Stream stream, ByteBuf content, boolean endStream, boolean track) {
        if (track) {
            return encoder().writeData(ctx, stream.id(), content, 0, endStream, ctx.newPromise());
        }
        encoder().writeData(ctx, stream.id(), content, 0, endStream, ctx.voidPromise());
        return null;
    }

    /** Resets {@code stream} unless it is already closed; flushed with the pass. */
    public final void writeReset(Http2Stream stream, Http2Error error) {
        if (stream.state() == Http2Stream.State.CLOSED) {
            return;
        }
        encoder().writeRstStream(ctx, stream.id(), error.code(), ctx.voidPromise());
        flushSoon();
    }

    /**
     * Returns {@code bytes} the peer sent on {@code stream} to its stream and connection windows
     * (the local flow controller sends WINDOW_UPDATE once enough is returned); a closed stream's
     * bytes were returned when it closed. Netty refuses only bytes it never counted, a bug of
     * ours, which is a connection error.
     */
    public final void consumeBytes(Http2Stream stream, int bytes) {
        try {
            decoder().flowController().consumeBytes(stream, bytes);
        } catch (Http2Exception e) {
            onError(ctx, false, e);
        }
    }

    /**
     * Flushes the connection once the event loop has handled the I/O it is working through, so
     * that frames written in the same pass leave in one write.
     */
    public final void flushSoon() {
        if (flushQueued) {
            return;
        }
        flushQueued = true;
        ctx.channel().eventLoop().execute(flushTask);
    }

    /**
     * Widens the connection's receive window by {@code increment} bytes (WINDOW_UPDATE on stream
     * 0, flushed now) so that one paused stream does not stall the others; MUST be called once the
     * connection preface went out.
     */
    protected final void widenConnectionWindow(int increment) throws Http2Exception {
        if (increment <= 0) {
            return;
        }
        decoder().flowController().incrementWindowSize(connection().connectionStream(), increment);
        flush(ctx);
    }

    /**
     * HEADERS from the peer on {@code streamId}, a stream the codec knows, handed over by
     * {@link Http2StreamFrameListener}.
     */
    protected abstract void headersRead(int streamId, Http2Headers headers, boolean endStream);

    /**
     * DATA from the peer on {@code streamId}, a stream the codec knows, handed over by
     * {@link Http2StreamFrameListener}; {@code data} is the decoder's, released after the call.
     *
     * @return the bytes (padding included) to return to the peer's windows at once
     */
    protected abstract int dataRead(int streamId, ByteBuf data, int padding, boolean endStream);

    /** The side's stream kept on the codec's {@code stream}, or null when none was attached. */
    protected final S streamOf(Http2Stream stream) {
        return stream.getProperty(streamKey);
    }

    /** Keeps {@code attached} on the codec's {@code stream}, which from now on tells it of its events. */
    protected final void attach(Http2Stream stream, S attached) {
        stream.setProperty(streamKey, attached);
    }

    /** Adds {@code stream}, which just read something, to the read batch, once per batch. */
    protected final void joinReadBatch(S stream) {
        Stream reading = stream;
        if (reading.inReadBatch) {
            return;
        }
        reading.inReadBatch = true;
        readBatch.add(stream);
    }

    /** When the last read batch ended ({@link System#nanoTime()}), or the handler was added. */
    protected final long lastReadNanos() {
        return lastReadNanos;
    }

    private void flushNow() {
        flushQueued = false;
        flush(ctx);
    }

    /** One stream of a {@link Http2Multiplexer}, told of its events by the connection. */
    public abstract static class Stream {

        private final Http2Multiplexer<?> connection;
        /** Whether the stream read something in the connection's current read batch. */
        private boolean inReadBatch;
        /** Whether the stream's reader takes data: only then are received bytes returned to the peer. */
        private boolean reading = true;
        /** Bytes the peer's DATA took from its windows that were not returned yet. */
        private int uncreditedBytes;
        /** Whether the stream takes more bytes to write, as last reported by the flow controller. */
        private boolean writable = true;

        protected Stream(Http2Multiplexer<?> connection) {
            this.connection = connection;
        }

        /** Flushes what the stream wrote once the event loop's current pass is done. */
        public void flush() {
            connection.flushSoon();
        }

        /** Whether the stream takes more bytes to write now. */
        public boolean isWritable() {
            return writable;
        }

        /**
         * Starts or stops reading from the peer: while stopped, the bytes it sends are not given
         * back to its windows; when reading starts again they are, and sent at the next flush.
         */
        public void setReading(boolean reading) {
            this.reading = reading;
            if (reading && uncreditedBytes > 0) {
                credit();
                connection.flushSoon();
            }
        }

        /** Records the stream's writability; returns whether it changed. */
        protected final boolean writable(boolean now) {
            if (now == writable) {
                return false;
            }
            writable = now;
            return true;
        }

        /**
         * A DATA frame took {@code flowControlledBytes} from the peer's windows: they go back at
         * once while the reader reads, else when it reads again, so that a paused stream holds at
         * most one stream window.
         */
        protected final void received(int flowControlledBytes) {
            uncreditedBytes += flowControlledBytes;
            if (reading) {
                credit();
            }
        }

        /** Returns every byte held back to the peer's windows, reading or not. */
        protected final void credit() {
            int bytes = uncreditedBytes;
            uncreditedBytes = 0;
            if (bytes > 0) {
                returnBytes(bytes);
            }
        }

        /** Gives {@code bytes} back to the peer's stream and connection windows. */
        protected abstract void returnBytes(int bytes);

        /** The connection's read batch in which the stream read something ended. */
        protected abstract void readComplete();

        /** The flow controller says the stream's writability may have changed. */
        protected abstract void writabilityChanged();

        /** The codec's stream closed: both sides ended, a reset either way, or the connection closed. */
        protected abstract void closed();
    }
}
