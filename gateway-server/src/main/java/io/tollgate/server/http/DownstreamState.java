package io.tollgate.server.http;

/**
 * Where an {@link HttpDownstream} is between two request heads: what it does with what the
 * client sends next.
 */
enum DownstreamState {
    /** Waiting for a request head. */
    IDLE,
    /** A request body is streaming to the current exchange. */
    FORWARDING_BODY,
    /** The request was answered locally; its body is read and dropped. */
    DISCARDING_BODY,
    /** The request is complete; its response is in progress. */
    AWAITING_RESPONSE,
    /** A stream filter holds the request; what the client sends meanwhile waits, read. */
    FILTERING,
    /** The connection closes once the last response is flushed; input is dropped. */
    CLOSING
}
