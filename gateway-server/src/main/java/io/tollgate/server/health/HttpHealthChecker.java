package io.tollgate.server.health;

import static java.util.Objects.requireNonNull;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Promise;
import io.tollgate.core.config.HttpHealthCheckConfig;
import io.tollgate.router.host.Host;

/**
 * Sends {@code GET path} and passes when the response status is one of the expected ones; the
 * body is not read.
 */
final class HttpHealthChecker implements HealthChecker {

    private static final String USER_AGENT = "tollgate-health-check";

    private final HttpHealthCheckConfig config;

    HttpHealthChecker(HttpHealthCheckConfig config) {
        this.config = requireNonNull(config, "config");
    }

    @Override
    public void initProbe(ChannelPipeline pipeline, Host host, Promise<Boolean> verdict) {
        pipeline.addLast(new HttpClientCodec(4096, 8192, 8192));
        pipeline.addLast(new ProbeHandler(verdict) {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, config.path(),
                        ctx.alloc().buffer(0));
                request.headers()
                        .set(HttpHeaderNames.HOST, host.id())
                        .set(HttpHeaderNames.USER_AGENT, USER_AGENT)
                        .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                ctx.writeAndFlush(request);
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                try {
                    if (msg instanceof HttpResponse response) {
                        verdict.trySuccess(response.decoderResult().isSuccess() && config.expects(response.status().code()));
                    }
                } finally {
                    ReferenceCountUtil.release(msg);
                }
            }
        });
    }
}
