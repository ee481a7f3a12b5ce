package io.tollgate.core.filter;

import io.netty.buffer.ByteBuf;

/**
 * A per-request extension: fault injection, RBAC, rate limiting, header changes, mirroring. One
 * instance serves every request of its chain on every event loop, so it is immutable or
 * thread-safe; what a request needs kept between callbacks goes in
 * {@link StreamFilterContext#state(StreamFilter)}.
 *
 * <p>Callbacks run on the request's event loop and never block it: a filter that must wait (a
 * delay, a call elsewhere) returns {@link FilterStatus#STOP} and later calls
 * {@link StreamFilterContext#resume()} or {@link StreamFilterContext#respond} from that loop
 * ({@link StreamFilterContext#executor()}). Request callbacks run in chain order, response
 * callbacks in reverse order, as in Envoy. Body callbacks see the bytes without owning them: a
 * filter that keeps them retains or copies them. Every callback but {@link #onRequest} does
 * nothing by default.
 */
public interface StreamFilter {

    /**
     * The request's head arrived and was routed ({@link StreamFilterContext#routeName()}); its
     * body, if any, follows. The filter may answer it ({@link StreamFilterContext#respond}),
     * change its headers, or hold it.
     */
    FilterStatus onRequest(StreamFilterContext context);

    /**
     * A part of the request's body, after the chain let the request through; {@code last} when it
     * ends the body. An RPC request has no separate body: this is not called for it.
     */
    default void onRequestBody(StreamFilterContext context, ByteBuf content, boolean last) {
    }

    /**
     * The request's trailers (HTTP/1.1 chunked trailers, HTTP/2 trailing HEADERS), after its last
     * body part, when it has any; they may still change.
     */
    default void onRequestTrailers(StreamFilterContext context, FilterHeaders trailers) {
    }

    /** The head of the response, before it is written; headers may still change. */
    default void onResponse(StreamFilterContext context, FilterResponse response) {
    }

    /** A part of the response's body, before it is written; {@code last} when it ends the body. */
    default void onResponseBody(StreamFilterContext context, ByteBuf content, boolean last) {
    }

    /**
     * The response's trailers, when it has any (a gRPC call's {@code grpc-status} is there),
     * before they are written; they may still change.
     */
    default void onResponseTrailers(StreamFilterContext context, FilterHeaders trailers) {
    }

    /**
     * The request ended, whichever way (answered, reset, its client gone); {@code status} as
     * the access log writes it. Called once for every request {@link #onRequest} saw.
     */
    default void onComplete(StreamFilterContext context, int status) {
    }
}
