package io.tollgate.filters.trace;

/**
 * The gateway's span of one request, once the request ended.
 *
 * @param span the trace, the gateway's span id and the caller's
 * @param name {@code service/method} for RPC, else the HTTP method and path
 * @param listener the listener's name
 * @param route the route's name, or null
 * @param startEpochMicros when the filter saw the request
 * @param durationMicros from then to the request's end
 * @param status the status as the access log writes it
 * @param upstreamHost the host that answered, or null
 * @param peerAddress the client's IP address (the one a PROXY protocol header carried, if any), or null
 */
public record FinishedSpan(TraceSpan span, String name, String listener, String route, long startEpochMicros,
        long durationMicros, int status, String upstreamHost, String peerAddress) {
}
