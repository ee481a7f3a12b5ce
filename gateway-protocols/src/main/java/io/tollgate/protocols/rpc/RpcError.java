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
    MALFORMED,
    /** The gateway's policy (RBAC) refused the call. HTTP meaning 403 whatever status carries it. */
    PERMISSION_DENIED,
    /** The gateway failed the call on purpose or by its own fault (an injected fault, a filter's failure). */
    SERVER_ERROR,
    /**
     * The gateway's rate limit refused the call: answered as the protocol's busy server, but with
     * HTTP meaning 429, so that metrics and the access log count it as HTTP's limit is counted.
     */
    RATE_LIMITED;

    /**
     * The condition a stream filter's answer with {@code httpStatus} stands for: 403 and 401 a
     * refusal, 429 a rate limit, 503 a busy server, 404 no route, 408 and 504 a timeout, 502 a
     * lost upstream, anything else a server error.
     */
    public static RpcError forHttpStatus(int httpStatus) {
        return switch (httpStatus) {
            case 401, 403 -> PERMISSION_DENIED;
            case 429 -> RATE_LIMITED;
            case 503 -> OVERFLOW;
            case 404 -> NO_ROUTE;
            case 408, 504 -> TIMEOUT;
            case 502 -> CONNECTION_CLOSED;
            default -> SERVER_ERROR;
        };
    }
}
