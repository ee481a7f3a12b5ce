package io.tollgate.filters.trace;

/**
 * The gateway's span of one request, once the request ended.
 *
 * @param name {@code service/method} for RPC, else the HTTP method and path
 * @param startEpochMicros when the filter saw the request
 * @param durationMicros from then to the request's end
 * @param status the status as the access log writes it
 * @param upstreamHost the host that answered, or null
 */
record FinishedSpan(TraceSpan span, String name, String listener, String route, long startEpochMicros,
        long durationMicros, int status, String upstreamHost) {
}
