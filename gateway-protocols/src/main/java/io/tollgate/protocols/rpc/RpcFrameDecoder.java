package io.tollgate.protocols.rpc;

import static java.util.Objects.requireNonNull;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Cuts a connection's byte stream into {@link RpcFrame}s with an {@link RpcCodec}, each a retained
 * slice of the received bytes, so that no frame is ever copied. The emitted frames are owned by the
 * next handler, which MUST release them.
 *
 * <p>A malformed frame raises the codec's {@link RpcCodecException}; from then on the decoder
 * discards everything the connection sends, since frame boundaries are lost. The handler above
 * answers when the sender waits, and closes.
 *
 * <p>Stateful: one instance per channel, never shared.
 */
public class RpcFrameDecoder extends ByteToMessageDecoder {

    private final RpcCodec codec;
    private boolean failed;

    public RpcFrameDecoder(RpcCodec codec) {
        this.codec = requireNonNull(codec, "codec");
    }

    /** Whether no part of a frame waits here for more bytes, and the stream is not broken. */
    public boolean holdsNoBytes() {
        return !failed && actualReadableBytes() == 0;
    }

    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        RpcFrame frame;
        try {
            frame = codec.decode(in);
        } catch (RpcCodecException e) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw e;
        }
        if (frame != null) {
            out.add(frame);
        }
    }
}
