package io.tollgate.server.upstream;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http2.DefaultHttp2PingFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pooled HTTP/2 connection to an upstream host, the last handler of its pipeline: it opens
 * streams for exchanges and counts them against the host's SETTINGS_MAX_CONCURRENT_STREAMS, stops
 * taking streams on GOAWAY (Netty finishes the streams below the last stream id and closes the
 * others) and closes once the last stream ended, and checks liveness with PING: after a heartbeat
 * interval without a frame it pings, and when the next interval passes without an answer it
 * closes the connection, failing its streams at once instead of at their timeouts.
 */
final class Http2UpstreamConnection extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(Http2UpstreamConnection.class);
    private static final long PING_PAYLOAD = 0x746f6c6c67617465L;

    private final Http2ConnectionPool pool;
    private final int connectionWindowIncrement;
    private Channel channel;
    private boolean ready;
    private boolean goingAway;
    private boolean pingOutstanding;
    private long maxStreams = Long.MAX_VALUE;
    private int streams;

    Http2UpstreamConnection(Http2ConnectionPool pool, int connectionWindowIncrement) {
        this.pool = pool;
        this.connectionWindowIncrement = connectionWindowIncrement;
    }

    /** Whether a new stream may be opened now. */
    boolean hasCapacity() {
        return takesStreams() && streams < maxStreams;
    }

    /** Whether the connection takes new streams when it has room: ready, open, and not going away. */
    boolean takesStreams() {
        return ready && !goingAway && channel.isActive();
    }

    /** Opens a stream for {@code acquirer}; the caller checked {@link #hasCapacity()}. */
    void openStream(UpstreamPool.Acquirer acquirer) {
        streams++;
        Http2UpstreamStream stream = new Http2UpstreamStream(this);
        new Http2StreamChannelBootstrap(channel).handler(new ChannelInitializer<Http2StreamChannel>() {
            @Override
            protected void initChannel(Http2StreamChannel ch) {
                ch.pipeline().addLast("codec", new Http2StreamFrameToHttpObjectCodec(false)).addLast("upstream", stream);
            }
        }).open().addListener(f -> {
            if (f.isSuccess()) {
                acquirer.acquired(stream);
            } else {
                streamClosed();
                acquirer.failed(UpstreamPool.Failure.CONNECT_FAILED, f.cause());
            }
        });
    }

    /** Takes no new streams (its pool is retired) and closes once the open ones have ended. */
    void drain() {
        goingAway = true;
        if (streams == 0) {
            channel.close();
        }
    }

    /** Called once by each stream of this connection when it closed. */
    void streamClosed() {
        streams--;
        if (goingAway && streams == 0) {
            channel.close();
            return;
        }
        pool.capacityChanged();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.channel = ctx.channel();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (connectionWindowIncrement > 0) {
            ctx.writeAndFlush(new DefaultHttp2WindowUpdateFrame(connectionWindowIncrement));
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        pingOutstanding = false;
        try {
            if (msg instanceof Http2SettingsFrame) {
                Long max = ((Http2SettingsFrame) msg).settings().maxConcurrentStreams();
                if (max != null) {
                    maxStreams = max;
                }
                if (!ready) {
                    ready = true;
                    pool.ready(this);
                } else {
                    pool.capacityChanged();
                }
            } else if (msg instanceof Http2GoAwayFrame) {
                goingAway = true;
                log.debug("{}: GOAWAY {} after stream {}", pool.host(), ((Http2GoAwayFrame) msg).errorCode(),
                        ((Http2GoAwayFrame) msg).lastStreamId());
                if (streams == 0) {
                    ctx.close();
                } else {
                    pool.capacityChanged();
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            if (pingOutstanding) {
                log.debug("{}: no answer to PING, closing", pool.host());
                ctx.close();
                return;
            }
            pingOutstanding = true;
            ctx.writeAndFlush(new DefaultHttp2PingFrame(PING_PAYLOAD));
            return;
        }
        ReferenceCountUtil.release(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        pool.closed(this, ready);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("{}: upstream HTTP/2 connection failed", pool.host(), cause);
        ctx.close();
    }

    Http2ConnectionPool pool() {
        return pool;
    }
}
