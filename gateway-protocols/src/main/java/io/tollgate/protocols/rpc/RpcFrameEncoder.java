package io.tollgate.protocols.rpc;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * Writes {@link RpcFrame}s as the bytes they view, so that a forwarded frame (its request id
 * rewritten in place) leaves exactly as it arrived, without a copy.
 *
 * <p>Writing a frame passes its reference to the write: the encoder hands a retained duplicate of the
 * frame's bytes on and releases the frame. Gateway-made frames are plain {@code ByteBuf}s and pass
 * through untouched. Stateless, so {@link #INSTANCE} serves every channel.
 */
@Sharable
public final class RpcFrameEncoder extends MessageToMessageEncoder<RpcFrame> {

    /** The one instance every pipeline shares. */
    public static final RpcFrameEncoder INSTANCE = new RpcFrameEncoder();

    private RpcFrameEncoder() {
        super(RpcFrame.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, RpcFrame frame, List<Object> out) {
        out.add(frame.bytes().retainedDuplicate());
    }
}
