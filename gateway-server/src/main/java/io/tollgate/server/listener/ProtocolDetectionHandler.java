package io.tollgate.server.listener;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.core.protocol.Detection;
import io.tollgate.server.transport.MovableConnection;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses a connection's protocol from its first bytes, installs that protocol's handlers and
 * removes itself; the bytes read so far are handed to the new handlers untouched. A connection
 * whose first bytes no protocol claims is closed, unless they began like one protocol's opening,
 * which then answers them with its own error (HTTP/2: GOAWAY PROTOCOL_ERROR for a broken
 * preface, RFC 9113 section 3.4); so is one that names no protocol within the
 * detection timeout (silent, or one byte and then nothing) or within {@value #MAX_DETECTION_BYTES}
 * bytes, each counted in {@code tollgate.downstream.cx.rejected}.
 */
final class ProtocolDetectionHandler extends ByteToMessageDecoder implements MovableConnection {

    /**
     * The most bytes a protocol may need to be recognised; every detector in the tree decides
     * within the 24 bytes of the HTTP/2 preface.
     */
    static final int MAX_DETECTION_BYTES = 1024;

    private static final Logger log = LoggerFactory.getLogger(ProtocolDetectionHandler.class);

    private final List<DownstreamProtocol> protocols;
    private final ListenerMetrics metrics;
    private final HandlerTimeout timeout;

    ProtocolDetectionHandler(List<DownstreamProtocol> protocols, long timeoutNanos, ListenerMetrics metrics) {
        this.protocols = protocols;
        this.metrics = metrics;
        this.timeout = new HandlerTimeout(timeoutNanos, metrics, "detection_timeout");
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        timeout.start(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        timeout.cancel();
    }

    @Override
    public String protocol() {
        return null;
    }

    @Override
    public boolean betweenMessages() {
        return actualReadableBytes() == 0;
    }

    @Override
    public boolean quiescent() {
        return betweenMessages();
    }

    @Override
    public boolean firstFrameSeen() {
        return false;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        boolean needMore = false;
        for (DownstreamProtocol protocol : protocols) {
            Detection detection = protocol.detector().detect(in);
            if (detection == Detection.MATCH) {
                protocol.configure(ctx.pipeline());
                ctx.pipeline().remove(this);
                return;
            }
            needMore |= detection == Detection.NEED_MORE;
        }
        if (!needMore) {
            for (DownstreamProtocol protocol : protocols) {
                if (protocol.detector().answersUnclaimed(in)) {
                    protocol.configure(ctx.pipeline());
                    ctx.pipeline().remove(this);
                    return;
                }
            }
            log.debug("{}: no protocol matches the first bytes, closing", ctx.channel().remoteAddress());
            in.skipBytes(in.readableBytes());
            ctx.close();
        } else if (in.readableBytes() >= MAX_DETECTION_BYTES) {
            log.debug("{}: no protocol recognised in the first {} bytes, closing", ctx.channel().remoteAddress(),
                    in.readableBytes());
            metrics.connectionRejected("detection_bytes");
            in.skipBytes(in.readableBytes());
            ctx.close();
        }
    }
}
