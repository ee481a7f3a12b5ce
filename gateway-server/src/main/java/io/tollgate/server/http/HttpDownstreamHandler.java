package io.tollgate.server.http;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.protocols.http1.HopByHopHeaders;
import io.tollgate.protocols.http1.Http1Decoders;
import io.tollgate.protocols.http1.RequestHeadEvent;
import io.tollgate.server.drain.DrainableConnection;
import io.tollgate.server.drain.ListenerConnections;
import io.tollgate.server.exchange.Deadline;
import io.tollgate.server.exchange.Deadlines;
import io.tollgate.server.transport.HandlerFailures;
import io.tollgate.server.transport.MovableConnection;
import io.tollgate.server.transport.PipelineNames;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of a downstream HTTP/1.x connection: it carries the connection's
 * {@link HttpDownstream}, counts the connection in the listener's metrics, and enforces
 * {@code request_headers_timeout}: a request head not complete that long after the read that
 * brought its first bytes ({@link RequestHeadEvent#STARTED}) is answered 408 and the connection
 * closed. Only a head split over reads starts the timeout, which waits on the loop's
 * {@link Deadlines} in an object made once per connection: a head that arrives whole costs
 * nothing for it. Drained, it answers the request in progress, or the next one if it comes
 * within {@link DrainableConnection#IDLE_LINGER_MILLIS}, with {@code Connection: close} and
 * closes after it; idle that long, it closes.
 */
final class HttpDownstreamHandler extends ChannelInboundHandlerAdapter
        implements DownstreamCarrier, MovableConnection, DrainableConnection {

    private static final Logger log = LoggerFactory.getLogger(HttpDownstreamHandler.class);

    private final HttpProxy proxy;
    private ChannelHandlerContext ctx;
    private PeerAddress peer;
    private HttpDownstream downstream;
    private Deadlines deadlines;
    private final HeadTimeout headTimeout = new HeadTimeout();
    private final long headTimeoutNanos;

    HttpDownstreamHandler(HttpProxy proxy) {
        this.proxy = proxy;
        this.headTimeoutNanos = proxy.listenerConfig().http().requestHeadersTimeout().toNanos();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.peer = new PeerAddress(ctx.channel());
        this.downstream = new HttpDownstream(proxy, this);
        this.deadlines = downstream.deadlines();
        proxy.listenerMetrics().connectionOpened();
        if (ListenerConnections.drainRequested(ctx.channel())) {
            downstream.closeAfterResponse();
        }
    }

    @Override
    public String protocol() {
        return "http1";
    }

    @Override
    public boolean betweenMessages() {
        return !headTimeout.pending() && Http1Decoders.betweenRequests(ctx.pipeline().get(PipelineNames.HEAD_GUARD));
    }

    /** No request is being served and no byte of a next one was read. */
    @Override
    public boolean quiescent() {
        return downstream.isIdle() && betweenMessages();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest && headTimeout.pending()) {
            deadlines.cancel(headTimeout);
        }
        downstream.read(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        downstream.readComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        downstream.writabilityChanged(ctx.channel().isWritable());
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        proxy.listenerMetrics().connectionClosed();
        deadlines.cancel(headTimeout);
        downstream.closed();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == RequestHeadEvent.STARTED) {
            if (!headTimeout.pending()) {
                deadlines.start(headTimeout, headTimeoutNanos);
            }
            return;
        }
        if (evt instanceof IdleStateEvent && downstream.isIdle()) {
            ctx.close();
            return;
        }
        ReferenceCountUtil.release(evt);
    }

    /**
     * The response in progress, else the next one (on a connection that has sent nothing yet, the
     * response to its first request), says {@code Connection: close} and the connection closes
     * after it; a connection idle between requests closes if no request came within
     * {@link #IDLE_LINGER_MILLIS} (one on the wire as the drain began is served, not reset).
     */
    @Override
    public void drain() {
        downstream.closeAfterResponse();
        if (downstream.requestSeen()) {
            ctx.executor().schedule(this::closeIfIdle, IDLE_LINGER_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    private void closeIfIdle() {
        if (ctx.channel().isActive() && downstream.isIdle() && !headTimeout.pending()) {
            ctx.close();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        HandlerFailures.caught(log, ctx.channel(), cause, proxy.listenerMetrics().connectionErrors(), true);
        ctx.close();
    }

    /**
     * A request head is late: 408 and close, unless the head waits because this connection stopped
     * reading for a request still in progress, whose client is not to blame.
     */
    private void headTimedOut() {
        if (!ctx.channel().isActive()) {
            return;
        }
        if (!downstream.isIdle()) {
            deadlines.start(headTimeout, headTimeoutNanos);
            return;
        }
        proxy.listenerMetrics().error("request_headers_timeout");
        FullHttpResponse response = LocalResponses.error(ctx.alloc(), HttpResponseStatus.REQUEST_TIMEOUT,
                "request_headers_timeout");
        HopByHopHeaders.setKeepAlive(response, HttpVersion.HTTP_1_1, false);
        ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }

    /** The timeout of the request head being read, started at its first byte. */
    private final class HeadTimeout extends Deadline {
        @Override
        protected void expired() {
            headTimedOut();
        }
    }

    @Override
    public EventLoop eventLoop() {
        return ctx.channel().eventLoop();
    }

    @Override
    public ByteBufAllocator alloc() {
        return ctx.alloc();
    }

    @Override
    public PeerAddress peer() {
        return peer;
    }

    @Override
    public boolean isHttp2Stream() {
        return false;
    }

    @Override
    public ChannelFuture write(HttpObject msg, boolean track) {
        return ctx.write(msg);
    }

    @Override
    public void flush() {
        ctx.flush();
    }

    @Override
    public boolean isWritable() {
        return ctx.channel().isWritable();
    }

    @Override
    public void setReading(boolean reading) {
        ctx.channel().config().setAutoRead(reading);
    }

    @Override
    public void endAfter(ChannelFuture lastWrite) {
        ChannelFuture last = lastWrite != null ? lastWrite : ctx.writeAndFlush(Unpooled.EMPTY_BUFFER);
        last.addListener(ChannelFutureListener.CLOSE);
    }

    /** HTTP/1 has no stream to reset: closing the connection is the only honest signal. */
    @Override
    public void reset(Http2Error error) {
        endAfter(null);
    }

    /**
     * An h2c upgrade is offered on a connection's first request; once that request arrived as
     * plain HTTP/1, the upgrade handler only costs a pass per message, so it leaves the pipeline.
     */
    @Override
    public void firstRequestSeen() {
        if (ctx.pipeline().get(PipelineNames.UPGRADE) != null) {
            ctx.pipeline().remove(PipelineNames.UPGRADE);
        }
    }
}
