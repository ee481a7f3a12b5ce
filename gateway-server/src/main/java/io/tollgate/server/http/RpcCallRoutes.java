package io.tollgate.server.http;

import io.netty.handler.codec.http.FullHttpResponse;
import io.tollgate.core.config.RpcCallConfig;
import io.tollgate.server.exchange.ExchangeTarget;
import io.tollgate.server.rpccall.HttpRpcCalls;
import io.tollgate.server.upstream.http.UpstreamPools;

/**
 * What a route whose action is {@code rpc_call} changes in an HTTP downstream's path: its OpenAPI
 * document is answered before any cluster is chosen, a per-service template's cluster is awaited
 * with the body read, and the exchange calls the RPC or gRPC service instead of proxying the
 * request. Every other route passes through with a field test.
 */
final class RpcCallRoutes {

    private RpcCallRoutes() {
    }

    /** The route's OpenAPI document when {@code request} asks for it; null otherwise and for other routes. */
    static FullHttpResponse openApi(HttpDownstream downstream, HttpRouteRequest request, HttpRpcCalls calls) {
        return request.route().rpcCall() == null ? null : RpcCallExchange.openApi(downstream, request, calls);
    }

    /** Whether a Dubbo/SOFA call waits for its per-service template's cluster, reading its body meanwhile. */
    static boolean awaitCluster(HttpDownstream downstream, HttpRouteRequest request) {
        RpcCallConfig call = request.route().rpcCall();
        return call != null && !call.protocol().grpc() && RpcCallExchange.forTemplate(downstream, request);
    }

    /** The exchange that calls the route's service, not yet started; null for a route that proxies. */
    static DownstreamExchange exchange(HttpDownstream downstream, HttpRouteRequest request, ExchangeTarget target,
            HttpProxy proxy, UpstreamPools pools) {
        RpcCallConfig call = request.route().rpcCall();
        if (call == null) {
            return null;
        }
        return call.protocol().grpc() ? new GrpcJsonExchange(downstream, request, target, proxy, pools)
                : new RpcCallExchange(downstream, request, target, proxy);
    }
}
