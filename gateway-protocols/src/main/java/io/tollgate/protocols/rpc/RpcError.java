package io.tollgate.protocols.rpc;

/**
 * The conditions the gateway answers by itself, in words every RPC protocol can map to one of its
 * statuses ({@link RpcCodec#errorReply}) and to an HTTP meaning ({@link RpcCodec#httpStatus}).
 */
public enum RpcError {
    /** No route matched the request's service and method. */
    NO_ROUTE,
    /** The route's cluster is unknown or has no host available. */
    NO_HEALTHY_UPSTREAM,
    /** A circuit breaker or a pending queue is full: the upstream is busy. */
    OVERFLOW,
    /** The request's or the route's timeout passed. */
    TIMEOUT,
    /** The upstream connection closed or could not be opened before the response came. */
    CONNECTION_CLOSED,
    /** The request could not be decoded; its connection closes after the answer. */
    MALFORMED
}
