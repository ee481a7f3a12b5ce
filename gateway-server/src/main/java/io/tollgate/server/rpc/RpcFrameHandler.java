package io.tollgate.server.rpc;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.protocols.rpc.RpcCodec;
import io.tollgate.protocols.rpc.RpcFrame;

/**
 * The read side both ends of an RPC connection share, the gateway as a server to its clients and
 * as a client of its upstreams: decoded frames go by kind to what the end does with them,
 * heartbeats are answered on the spot with the codec's acknowledgement, and everything written
 * during a read batch leaves in one flush when the batch ends. A frame of a kind the end has no
 * use for is released.
 */
abstract class RpcFrameHandler extends ChannelInboundHandlerAdapter {

    /** The protocol of this connection. */
    abstract RpcCodec codec();

    /** The event loop's RPC state, whose batched writes are flushed when a read batch ends. */
    abstract RpcLoop loop();

    /** Writes {@code msg} (ownership passes) for the batch's flush. */
    abstract boolean write(Object msg);

    /** A request or oneway request came; ownership passes. Released unless overridden. */
    void request(RpcFrame frame) {
        frame.release();
    }

    /** A response came; ownership passes. Released unless overridden. */
    void response(RpcFrame frame) {
        frame.release();
    }

    /** The peer acknowledged a heartbeat; the acknowledgement itself is released by the caller. */
    void heartbeatAcked(RpcFrame ack) {
    }

    @Override
    public final void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof RpcFrame frame)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        switch (frame.kind()) {
            case REQUEST, ONEWAY -> request(frame);
            case RESPONSE -> response(frame);
            case HEARTBEAT -> {
                write(codec().heartbeatAck(ctx.alloc(), frame));
                frame.release();
            }
            case HEARTBEAT_ACK -> {
                heartbeatAcked(frame);
                frame.release();
            }
        }
    }

    @Override
    public final void channelReadComplete(ChannelHandlerContext ctx) {
        loop().flush();
    }
}
