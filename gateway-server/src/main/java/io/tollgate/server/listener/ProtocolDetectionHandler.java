package io.tollgate.server.listener;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.tollgate.core.protocol.Detection;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses a connection's protocol from its first bytes, installs that protocol's handlers and
 * removes itself; the bytes read so far are handed to the new handlers untouched. A connection
 * whose first bytes no protocol claims is closed.
 */
final class ProtocolDetectionHandler extends ByteToMessageDecoder {

    private static final Logger log = LoggerFactory.getLogger(ProtocolDetectionHandler.class);

    private final List<DownstreamProtocol> protocols;

    ProtocolDetectionHandler(List<DownstreamProtocol> protocols) {
        this.protocols = protocols;
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
            log.debug("{}: no protocol matches the first bytes, closing", ctx.channel().remoteAddress());
            in.skipBytes(in.readableBytes());
            ctx.close();
        }
    }
}
