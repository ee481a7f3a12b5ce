package io.tollgate.router.outlier;

/** A request that failed at the gateway's end, before or instead of an upstream answer. */
public enum UpstreamFailure {
    /** No connection could be opened to the host. */
    CONNECT_FAILURE,
    /** The connection was reset or closed, or the answer was not valid, before the response ended. */
    RESET,
    /** The host did not answer within the route's timeout. */
    TIMEOUT
}
