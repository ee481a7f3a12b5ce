package io.tollgate.core.filter;

/**
 * The head of a response on its way to the client, as {@link StreamFilter#onResponse} sees it:
 * an upstream's answer or one the gateway made. An RPC response's status is given by its HTTP
 * meaning (200 for success, 503 for a busy server ...).
 */
public interface FilterResponse {

    /** The HTTP status, or for an RPC response its status's HTTP meaning. */
    int status();

    /** Whether the gateway made this response itself (a route's direct response, an error, a filter's answer). */
    boolean local();

    /** The response's headers; writable for HTTP. */
    FilterHeaders headers();
}
