package io.tollgate.protocols.bolt;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * Writes {@link BoltFrame}s as the bytes they view, so that a forwarded frame (its request id
 * rewritten in place) leaves exactly as it arrived, without a copy.
 *
 * <p>Writing a frame passes its reference to the write: the encoder hands a retained duplicate of the
 * frame's bytes downstream and releases the frame. Gateway-made frames from {@link BoltResponses} and
 * {@link BoltHeartbeats} are plain {@code ByteBuf}s and pass through untouched. Stateless, so one
 * instance may serve every channel.
 */
@Sharable
public final class BoltEncoder extends MessageToMessageEncoder<BoltFrame> {

    /** Creates the encoder; it handles {@link BoltFrame} messages only. */
    public BoltEncoder() {
        super(BoltFrame.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, BoltFrame frame, List<Object> out) {
        out.add(frame.bytes().retainedDuplicate());
    }
}
