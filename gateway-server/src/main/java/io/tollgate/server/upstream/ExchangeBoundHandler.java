package io.tollgate.server.upstream;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpObject;

/**
 * The last handler of an upstream connection or stream that serves one exchange at a time:
 * while an {@link UpstreamListener} is bound, responses, read-batch ends, writability changes and
 * the close go to it. Subclasses say what to do with anything that arrives while nobody listens
 * and what the pool must learn when the channel closes.
 */
abstract class ExchangeBoundHandler extends ChannelInboundHandlerAdapter implements UpstreamConnection {

    private Channel channel;
    private UpstreamListener listener;

    @Override
    public final Channel channel() {
        return channel;
    }

    @Override
    public final void bind(UpstreamListener listener) {
        this.listener = listener;
    }

    /** Forgets the bound exchange. */
    void unbind() {
        this.listener = null;
    }

    /** Whether an exchange is bound. */
    final boolean bound() {
        return listener != null;
    }

    /** A message that no bound exchange takes; the subclass MUST release it. */
    abstract void unexpected(ChannelHandlerContext ctx, Object msg);

    /** The channel closed; called before the bound exchange hears of it. */
    abstract void closed();

    @Override
    public final void handlerAdded(ChannelHandlerContext ctx) {
        this.channel = ctx.channel();
    }

    @Override
    public final void channelRead(ChannelHandlerContext ctx, Object msg) {
        UpstreamListener current = listener;
        if (current != null && msg instanceof HttpObject) {
            current.onResponse((HttpObject) msg);
            return;
        }
        unexpected(ctx, msg);
    }

    @Override
    public final void channelReadComplete(ChannelHandlerContext ctx) {
        UpstreamListener current = listener;
        if (current != null) {
            current.onResponseBatchComplete();
        }
    }

    @Override
    public final void channelWritabilityChanged(ChannelHandlerContext ctx) {
        UpstreamListener current = listener;
        if (current != null) {
            current.onUpstreamWritabilityChanged(ctx.channel().isWritable());
        }
    }

    @Override
    public final void channelInactive(ChannelHandlerContext ctx) {
        closed();
        UpstreamListener current = listener;
        listener = null;
        if (current != null) {
            current.onUpstreamClosed();
        }
    }
}
