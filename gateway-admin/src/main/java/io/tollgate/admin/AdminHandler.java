package io.tollgate.admin;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one admin request at a time on a connection: finds the endpoint by path, checks the
 * method (405 with {@code Allow} when wrong) and, for an endpoint that changes the process (POST)
 * when a token is configured, the bearer token (401 when missing or wrong), runs it and writes
 * its response.
 */
final class AdminHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger log = LoggerFactory.getLogger(AdminHandler.class);

    private static final String BEARER = "Bearer ";

    /**
     * Only this origin's scripts, styles, images and connections, no inline script, no eval, no
     * framing: the console's pages and every other answer alike.
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; base-uri 'none'; form-action 'self';"
            + " frame-ancestors 'none'";

    private final AdminEndpoints endpoints;
    private final EventStream stream;
    private final byte[] token;

    /** @param token the bearer token mutating endpoints require, or empty when none is required */
    AdminHandler(AdminEndpoints endpoints, EventStream stream, Optional<String> token) {
        this.endpoints = endpoints;
        this.stream = stream;
        this.token = token.map(t -> t.getBytes(StandardCharsets.UTF_8)).orElse(null);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (request.decoderResult().isFailure()) {
            write(ctx, AdminResponse.text(HttpResponseStatus.BAD_REQUEST, "malformed request"), null, false);
            return;
        }
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        if (EventStream.PATH.equals(uri.path()) && HttpMethod.GET.equals(request.method())) {
            stream.subscribe(ctx.channel());
            return;
        }
        AdminEndpoint endpoint = endpoints.find(uri.path());
        if (endpoint == null) {
            write(ctx, AdminResponse.text(HttpResponseStatus.NOT_FOUND, "no such endpoint: " + uri.path()
                    + " (GET / lists them)"), null, keepAlive);
            return;
        }
        if (!endpoint.method().equals(request.method())) {
            write(ctx, AdminResponse.text(HttpResponseStatus.METHOD_NOT_ALLOWED, request.method() + " " + uri.path()
                    + " (expected: " + endpoint.method() + ")"), endpoint.method().name(), keepAlive);
            return;
        }
        if (token != null && HttpMethod.POST.equals(endpoint.method()) && !authorized(request)) {
            AdminResponse refusal = AdminResponse.text(HttpResponseStatus.UNAUTHORIZED, request.method() + " " + uri.path()
                    + " needs the header Authorization: Bearer <admin token>");
            write(ctx, refusal, null, keepAlive, true);
            return;
        }
        if (endpoint.loopbackOnly() && !fromLoopback(ctx)) {
            write(ctx, AdminResponse.text(HttpResponseStatus.FORBIDDEN, request.method() + " " + uri.path()
                    + " is answered on the loopback interface only"), null, keepAlive);
            return;
        }
        run(endpoint, uri, request.content().toString(StandardCharsets.UTF_8))
                .whenComplete((response, failure) -> write(ctx, failure == null ? response : failed(endpoint, failure),
                        null, keepAlive));
    }

    /** Compares in constant time, so that the answer's timing says nothing of the token. */
    private boolean authorized(FullHttpRequest request) {
        String header = request.headers().get(HttpHeaderNames.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return false;
        }
        byte[] presented = header.substring(BEARER.length()).strip().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(presented, token);
    }

    private static boolean fromLoopback(ChannelHandlerContext ctx) {
        return ctx.channel().remoteAddress() instanceof InetSocketAddress remote
                && remote.getAddress() != null && remote.getAddress().isLoopbackAddress();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("admin connection {} failed", ctx.channel().remoteAddress(), cause);
        ctx.close();
    }

    /** The endpoint's answer, now or later; one that throws answers 500. */
    private static CompletionStage<AdminResponse> run(AdminEndpoint endpoint, QueryStringDecoder uri, String body) {
        try {
            return endpoint.handler().apply(uri.parameters(), body);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(failed(endpoint, e));
        }
    }

    private static AdminResponse failed(AdminEndpoint endpoint, Throwable failure) {
        log.warn("admin endpoint {} failed", endpoint.path(), failure);
        return AdminResponse.text(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal error: " + failure);
    }

    private static void write(ChannelHandlerContext ctx, AdminResponse response, String allow, boolean keepAlive) {
        write(ctx, response, allow, keepAlive, false);
    }

    private static void write(ChannelHandlerContext ctx, AdminResponse response, String allow, boolean keepAlive,
            boolean challenge) {
        FullHttpResponse http = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                response.status(), Unpooled.copiedBuffer(response.body(), StandardCharsets.UTF_8));
        http.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, response.contentType())
                .setInt(HttpHeaderNames.CONTENT_LENGTH, http.content().readableBytes())
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE)
                .set(HttpHeaderNames.CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY)
                .set("x-content-type-options", "nosniff")
                .set("referrer-policy", "no-referrer");
        if (allow != null) {
            http.headers().set(HttpHeaderNames.ALLOW, allow);
        }
        if (challenge) {
            http.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"tollgate-admin\"");
        }
        if (!keepAlive) {
            http.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(http).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ctx.writeAndFlush(http);
    }
}
