package io.tollgate.server.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.net.SocketAddress;

/**
 * Writes given bytes on a connection the moment its connect succeeds, before the connect is
 * reported and before any other handler writes (a TLS ClientHello, the bytes of the caller's
 * connect listener): the first handler of an upstream pipeline that must open with a PROXY
 * protocol header. Leaves the pipeline once written; releases the bytes if the connect fails.
 */
public final class ConnectPreamble extends ChannelOutboundHandlerAdapter {

    private ByteBuf preamble;

    /** @param preamble the bytes to send first, released by this handler */
    public ConnectPreamble(ByteBuf preamble) {
        this.preamble = preamble;
    }

    @Override
    public void connect(ChannelHandlerContext ctx, SocketAddress remote, SocketAddress local, ChannelPromise promise) {
        ChannelPromise connected = ctx.newPromise();
        connected.addListener(f -> {
            if (f.isSuccess()) {
                ByteBuf first = preamble;
                preamble = null;
                ctx.writeAndFlush(first, ctx.voidPromise());
                ctx.pipeline().remove(this);
                promise.trySuccess();
            } else {
                promise.tryFailure(f.cause());
            }
        });
        ctx.connect(remote, local, connected);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (preamble != null) {
            preamble.release();
            preamble = null;
        }
    }
}
