package io.tollgate.server.http;

import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.protocols.generic.CallError;
import io.tollgate.protocols.http1.HopByHopHeaders;
import io.tollgate.server.exchange.ExchangeRecord;

/**
 * The client's side of a {@link JsonCallExchange}, the same whichever service it calls: it reads
 * the request's JSON body whole, up to the listener's body limit (a malformed or longer body is
 * refused as the contract's 400 or 413), and answers one JSON response, keeping an HTTP/1
 * connection open when the client wants it and its request was read whole. Confined to the
 * downstream's event loop.
 */
final class JsonCallDownstream {

    private final HttpDownstream downstream;
    private final HttpRouteRequest context;
    private final HttpProxy proxy;
    private final long maxBody;
    /** The body read so far; null once taken or released. */
    private CompositeByteBuf body;
    private boolean requestComplete;

    JsonCallDownstream(HttpDownstream downstream, HttpRouteRequest context, HttpProxy proxy) {
        this.downstream = downstream;
        this.context = context;
        this.proxy = proxy;
        this.maxBody = proxy.listenerConfig().http().maxRequestBodyBytes();
        this.requestComplete = context.complete();
        this.body = downstream.alloc().compositeBuffer();
    }

    /**
     * Takes the part of the body the request's head carries, and lets go of the head (its method,
     * target and headers stay readable).
     *
     * @return whether the body is whole
     */
    boolean start() {
        HttpRequest head = context.request();
        if (head instanceof HttpContent content) {
            body.addComponent(true, content.content().retain());
        }
        ReferenceCountUtil.release(head);
        return requestComplete;
    }

    /**
     * A part of the body; ownership passes here. A malformed part, or one past the body limit, is
     * refused through {@code exchange}; a part that comes once the body was taken or let go of (the
     * exchange ended) is dropped.
     *
     * @return whether the body is whole now
     */
    boolean add(HttpContent content, JsonCallExchange exchange) {
        if (body == null) {
            content.release();
            return false;
        }
        boolean last = content instanceof LastHttpContent;
        try {
            if (content.decoderResult().isFailure()) {
                downstream.requestBodyRejected("bad_request_body", true);
                exchange.fail(CallError.badRequest("the request's body is malformed"), "bad_request_body");
                return false;
            }
            if (body.readableBytes() + (long) content.content().readableBytes() > maxBody) {
                context.record().flag(ResponseFlag.REQUEST_TOO_LARGE);
                downstream.requestBodyRejected("body_too_large", true);
                exchange.fail(new CallError(413, "payload_too_large", "the body is longer than " + maxBody + " bytes"),
                        "body_too_large");
                return false;
            }
            body.addComponent(true, content.content().retain());
        } finally {
            content.release();
        }
        if (last) {
            requestComplete = true;
        }
        return last;
    }

    /** The whole body, whose ownership passes to the caller. */
    CompositeByteBuf takeBody() {
        CompositeByteBuf whole = body;
        body = null;
        return whole;
    }

    /** Lets go of the body read so far, if any. */
    void release() {
        if (body != null) {
            body.release();
            body = null;
        }
    }

    /** Whether the client's connection stays open after the answer: it wants it, and its request was read whole. */
    boolean keepAlive() {
        return context.keepAlive() && requestComplete && !downstream.lastResponse();
    }

    /**
     * Answers {@code json} with {@code status}, the end of {@code exchange}; {@code reason} names a
     * gateway error (sent as {@code x-tollgate-error}, and counted on the listener when
     * {@code count}), null for the service's own answer.
     */
    void answer(DownstreamExchange exchange, int status, String json, String reason, boolean count) {
        FullHttpResponse response = LocalResponses.json(downstream.alloc(), status, json, reason);
        if (reason != null && count) {
            proxy.listenerMetrics().error(reason);
        }
        ExchangeRecord record = context.record();
        record.sent(response.content().readableBytes());
        record.responseHeaders(response.headers());
        record.finish(status);
        if (context.filters() != null) {
            context.filters().response(new HttpFilterResponse(response, reason != null, reason != null));
        }
        if (downstream.isHttp2Stream()) {
            downstream.exchangeDone(exchange, downstream.writeAndFlush(response));
            return;
        }
        boolean keepAlive = keepAlive();
        HopByHopHeaders.setKeepAlive(response, context.version(), keepAlive);
        ChannelFuture written = downstream.writeAndFlush(response);
        downstream.exchangeDone(exchange, keepAlive ? null : written);
    }
}
