package io.tollgate.server.http;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.tollgate.protocols.generic.CallError;
import io.tollgate.protocols.http2.Grpc;
import io.tollgate.protocols.http2.GrpcStatus;
import io.tollgate.router.route.Route;
import io.tollgate.server.dispatch.GatewayError;
import io.tollgate.server.rpccall.HttpRpcCalls;

/**
 * Responses the gateway writes itself (errors, direct responses, redirects): a short text body
 * and, for errors, the {@value #REASON_HEADER} header naming why, so that a client or an
 * operator can tell a gateway error from an upstream one.
 */
final class LocalResponses {

    /** Names the reason of a gateway-generated error. */
    static final String REASON_HEADER = "x-tollgate-error";

    private LocalResponses() {
    }

    /**
     * An error the gateway answers itself: the usual text response, or for a gRPC request a
     * trailers-only response (status 200, {@code grpc-status} and {@code grpc-message} in the
     * headers, end of stream) that gRPC clients turn into a status.
     */
    static FullHttpResponse error(ByteBufAllocator alloc, boolean grpc, HttpResponseStatus status, String reason) {
        if (grpc) {
            return grpcError(alloc, GrpcStatus.forGatewayError(status.code(), reason), reason);
        }
        return error(alloc, status, reason);
    }

    /** An error response: status, reason header, and a one-line body naming the reason. */
    static FullHttpResponse error(ByteBufAllocator alloc, HttpResponseStatus status, String reason) {
        return error(alloc, status, reason, status.code() + " " + status.reasonPhrase() + ": " + reason + "\n");
    }

    /** An error answer with a body a filter gave (an authorization service's denial), flagged with {@code reason}. */
    static FullHttpResponse error(ByteBufAllocator alloc, HttpResponseStatus status, String reason, String body) {
        FullHttpResponse response = text(alloc, status, body);
        response.headers().set(REASON_HEADER, reason);
        return response;
    }

    /**
     * The answer to a request the dispatcher refused, when its route's action is {@code rpc_call}:
     * the contract's JSON saying why ({@link HttpRpcCalls#refusal}); null for any other route, whose
     * refusal is the usual error.
     */
    static FullHttpResponse callRefusal(ByteBufAllocator alloc, Route route, GatewayError error) {
        if (route == null || route.rpcCall() == null) {
            return null;
        }
        CallError call = HttpRpcCalls.refusal(error);
        return json(alloc, call.status(), call.toJson(), error.reason());
    }

    /**
     * An answer in the {@code rpc_call} contract's JSON with {@code status}; {@code reason}, when
     * not null, names the gateway's error in the {@value #REASON_HEADER} header.
     */
    static FullHttpResponse json(ByteBufAllocator alloc, int status, String json, String reason) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(status), ByteBufUtil.writeUtf8(alloc, json));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
        if (reason != null) {
            response.headers().set(REASON_HEADER, reason);
        }
        return response;
    }

    /**
     * A gRPC trailers-only error: status 200 with {@code grpc-status} and {@code grpc-message} in
     * the headers and no body, which HTTP/2 sends as one HEADERS frame ending the stream.
     */
    static FullHttpResponse grpcError(ByteBufAllocator alloc, GrpcStatus status, String reason) {
        return grpcError(alloc, status.code(), reason);
    }

    /** {@link #grpcError(ByteBufAllocator, GrpcStatus, String)} with any status code, as a filter may choose. */
    static FullHttpResponse grpcError(ByteBufAllocator alloc, int grpcStatus, String reason) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                alloc.buffer(0));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, Grpc.CONTENT_TYPE)
                .setInt(Grpc.STATUS, grpcStatus)
                .set(Grpc.MESSAGE, reason)
                .set(REASON_HEADER, reason);
        return response;
    }

    /** A response with a plain-text body. */
    static FullHttpResponse text(ByteBufAllocator alloc, HttpResponseStatus status, String body) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                ByteBufUtil.writeUtf8(alloc, body));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
        return response;
    }

    /** A response with no body. */
    static FullHttpResponse empty(ByteBufAllocator alloc, HttpResponseStatus status) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, alloc.buffer(0));
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
        return response;
    }

    /**
     * The answer of a route that answers itself: its direct response or its redirect; null for a
     * route that forwards.
     *
     * @param scheme the scheme the client used, for a redirect that keeps it
     */
    static FullHttpResponse ofRoute(ByteBufAllocator alloc, HttpRouteRequest request, String scheme) {
        Route route = request.route();
        if (route.kind() == Route.Kind.DIRECT_RESPONSE) {
            return text(alloc, HttpResponseStatus.valueOf(route.directResponse().status()),
                    route.directResponse().body());
        }
        if (route.kind() == Route.Kind.REDIRECT) {
            FullHttpResponse response = empty(alloc, HttpResponseStatus.valueOf(route.redirectCode()));
            response.headers().set(HttpHeaderNames.LOCATION,
                    route.redirectLocation(request, scheme, request.hostHeader()));
            return response;
        }
        return null;
    }
}
