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
 * @param status the status as the access log writes it (the HTTP meaning of an RPC status; 0: none)
 * @param upstreamHost the host that answered, or null
 * @param peerAddress the client's IP address (the one a PROXY protocol header carried, if any), or null
 * @param protocol the downstream protocol as the access log names it: {@code HTTP/1.1}, {@code BOLT/1}, {@code DUBBO} ...
 * @param rpc whether the request is an RPC call ({@code service} and {@code method} name it)
 * @param method the HTTP method, or the RPC method
 * @param service the RPC service (or gRPC service), null for plain HTTP
 * @param path the HTTP path, null for RPC
 * @param attempt 0 for the request's span (kind {@code SERVER}); for the span of an upstream
 *     attempt (kind {@code CLIENT}, a child of the request's), its number: 1 the first try, 2 the
 *     first retry ...; its {@code status} is then what the host answered, 0 for no answer
 */
public record FinishedSpan(TraceSpan span, String name, String listener, String route, long startEpochMicros,
        long durationMicros, int status, String upstreamHost, String peerAddress, String protocol, boolean rpc,
        String method, String service, String path, int attempt) {

    /**
     * Whether the request failed on the server side: a 5xx, or an RPC status that means one; for
     * an attempt, also no answer at all.
     */
    public boolean error() {
        return status >= 500 || (attempt > 0 && status == 0);
    }

    /** Whether this is the span of an upstream attempt (kind {@code CLIENT}). */
    public boolean client() {
        return attempt > 0;
    }
}
