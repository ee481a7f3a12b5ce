package io.tollgate.benchmarks.bolt;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.tollgate.benchmarks.rpc.RpcUpstreamServer;
import io.tollgate.protocols.bolt.BoltFrame;
import io.tollgate.protocols.bolt.BoltHeartbeats;
import io.tollgate.protocols.bolt.BoltResponses;
import io.tollgate.protocols.bolt.BoltStatus;
import java.util.Map;

/**
 * The Bolt upstream of the load benchmark: answers every request at once with a 1 KiB body,
 * flushing once per read batch; see {@link RpcUpstreamServer}. Usage: {@code BoltUpstreamServer [port] [threads]}.
 */
public final class BoltUpstreamServer {

    private static final ByteBuf BODY = Unpooled.unreleasableBuffer(Unpooled.directBuffer(1024).writeZero(1024));

    private BoltUpstreamServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        RpcUpstreamServer.serve(args, 12201, BoltWire.FRAMES, BoltUpstreamServer::answer);
    }

    /** Answers requests and heartbeats. */
    private static void answer(ChannelHandlerContext ctx, BoltFrame frame) {
        if (frame.kind() == BoltFrame.Kind.HEARTBEAT) {
            ctx.write(BoltHeartbeats.ack(ctx.alloc(), frame));
        } else if (frame.kind() == BoltFrame.Kind.REQUEST) {
            ctx.write(BoltResponses.response(ctx.alloc(), frame.dialect(), frame.requestId(), BoltStatus.SUCCESS,
                    null, Map.of(), BODY.duplicate()));
        }
    }
}
