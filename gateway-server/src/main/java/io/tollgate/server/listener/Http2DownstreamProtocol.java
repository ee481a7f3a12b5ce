package io.tollgate.server.listener;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.timeout.IdleStateHandler;
import io.tollgate.core.config.Http2Options;
import io.tollgate.core.protocol.ProtocolDetector;
import io.tollgate.protocols.http2.Http2Codecs;
import io.tollgate.protocols.http2.Http2Detector;
import io.tollgate.server.http.Http2ConnectionState;
import io.tollgate.server.http.HttpProxy;
import java.util.concurrent.TimeUnit;

/**
 * h2c on a listener, with prior knowledge (detected from the connection preface) or after an
 * upgrade from HTTP/1.1 (see {@link H2cUpgradeCodecs}). The connection's pipeline is the frame
 * codec, the multiplexer, the idle handler and the HTTP/2 connection handler; every stream is a
 * child channel whose pipeline is a frame to {@code HttpObject} codec, a zero-window hold guard
 * and the same proxy handler HTTP/1 uses.
 */
final class Http2DownstreamProtocol implements DownstreamProtocol {

    private static final ProtocolDetector DETECTOR = new Http2Detector();
    /** Stateless ({@code @Sharable}): one instance serves every stream. */
    private static final Http2StreamFrameToHttpObjectCodec STREAM_CODEC = new Http2StreamFrameToHttpObjectCodec(true);

    private final HttpProxy proxy;
    private final Http2Options options;
    private final long holdNanos;

    Http2DownstreamProtocol(HttpProxy proxy) {
        this.proxy = proxy;
        this.options = proxy.listenerConfig().http2();
        this.holdNanos = options.windowHoldTimeout().toNanos();
    }

    @Override
    public ProtocolDetector detector() {
        return DETECTOR;
    }

    @Override
    public void configure(ChannelPipeline pipeline) {
        long idleMillis = proxy.listenerConfig().http().idleTimeout().toMillis();
        pipeline.addLast(PipelineNames.CODEC, newCodec())
                .addLast(PipelineNames.MULTIPLEX, newMultiplexer())
                .addLast(PipelineNames.IDLE, new IdleStateHandler(0, 0, idleMillis, TimeUnit.MILLISECONDS))
                .addLast(PipelineNames.PROXY, proxy.newHttp2ConnectionHandler(false));
    }

    Http2FrameCodec newCodec() {
        return Http2Codecs.server(options);
    }

    /**
     * The multiplexer of one connection. Its stream initializer keeps what the connection's
     * streams share, made when the first stream opens.
     */
    Http2MultiplexHandler newMultiplexer() {
        return new Http2MultiplexHandler(new ChannelInitializer<Http2StreamChannel>() {
            private Http2ConnectionState connection;

            @Override
            protected void initChannel(Http2StreamChannel ch) {
                if (connection == null) {
                    connection = proxy.newHttp2ConnectionState(ch.parent());
                }
                ch.pipeline()
                        .addLast(PipelineNames.CODEC, STREAM_CODEC)
                        .addLast(PipelineNames.WINDOW_HOLD, new WindowHoldTimeout(holdNanos))
                        .addLast(PipelineNames.PROXY, proxy.newHttp2StreamHandler(connection));
            }
        });
    }

    HttpProxy proxy() {
        return proxy;
    }
}
