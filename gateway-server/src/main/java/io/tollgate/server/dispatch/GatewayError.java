package io.tollgate.server.dispatch;

import io.tollgate.core.accesslog.ResponseFlag;

/**
 * What the dispatcher refuses a request for before any exchange starts, with the response flag
 * and the counted reason it carries in every protocol (as Envoy: a route whose cluster does not
 * exist is {@code NC}, a cluster with no host to take the request is {@code UH}). A protocol's
 * {@link DownstreamSide} answers each in its own form.
 */
public enum GatewayError {
    /** The overload manager refuses new requests. */
    OVERLOAD(ResponseFlag.OVERLOAD_MANAGER, "overload"),
    /** No route matched, or the route does nothing the protocol can do. */
    NO_ROUTE(ResponseFlag.NO_ROUTE, "no_route"),
    /** The route names a cluster the configuration does not hold. */
    NO_CLUSTER(ResponseFlag.NO_CLUSTER_FOUND, "no_cluster"),
    /** The cluster has no host to take the request. */
    NO_HEALTHY_UPSTREAM(ResponseFlag.NO_HEALTHY_UPSTREAM, "no_healthy_upstream");

    private final ResponseFlag flag;
    private final String reason;

    GatewayError(ResponseFlag flag, String reason) {
        this.flag = flag;
        this.reason = reason;
    }

    /** The access log's response flag. */
    public ResponseFlag flag() {
        return flag;
    }

    /** The reason as counted and, for HTTP, sent in {@code x-tollgate-error}. */
    public String reason() {
        return reason;
    }
}
