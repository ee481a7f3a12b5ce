package io.tollgate.core.accesslog;

import static java.util.Objects.requireNonNull;

/**
 * One finished request as the access log records it: built by the proxy when the response
 * ends, formatted later on the writer's thread.
 *
 * <p>Strings other than {@code listener}, {@code protocol} and {@code responseFlags} may be
 * null when unknown (for instance a request rejected before its line was parsed); they are
 * written as {@code -}.
 *
 * @param startEpochMillis when the first byte of the request arrived
 * @param protocol the downstream protocol as written in a request line, e.g. {@code HTTP/1.1}
 * @param status the status sent downstream
 * @param bytesReceived body bytes received from downstream
 * @param bytesSent body bytes sent downstream
 * @param durationMicros from the first request byte to the last response byte
 * @param upstreamHost {@code address:port} of the host that answered, or null
 * @param route the matched route's name, or null
 * @param requestId the request id (x-request-id, Bolt or Dubbo id), or null
 * @param responseFlags {@link ResponseFlag#NONE} or codes joined with commas, see
 *     {@link ResponseFlag#codes}
 * @param downstreamAddress the client's {@code address:port}
 * @param downstreamPeer the verified identity of the client's TLS certificate (its first URI SAN,
 *     else its first other SAN, else its subject), or null when it presented none
 * @param upstreamCluster the cluster the request went to, or null
 * @param rpcService a Bolt service or Dubbo interface, or null (a gRPC call's is read from its path)
 * @param rpcMethod a Bolt or Dubbo method, or null
 * @param grpc whether the request was a gRPC call, whose path names its service and method
 * @param requestHeaders the values of the request headers (Bolt headers, Dubbo attachments) that the
 *     listener's format asks for, in the order of {@link HeaderCapture#request()}; null when none were
 *     captured. Not copied: the array MUST NOT be changed once the entry is built.
 * @param responseHeaders likewise for {@link HeaderCapture#response()}
 * @param trailers likewise for {@link HeaderCapture#trailers()}
 * @param traceId the request's trace id, or null when tracing is off
 * @param spanId the span id the gateway gave the request, or null when tracing is off
 */
public record AccessLogEntry(
        long startEpochMillis,
        String listener,
        String protocol,
        String method,
        String path,
        String authority,
        int status,
        long bytesReceived,
        long bytesSent,
        long durationMicros,
        String upstreamHost,
        String route,
        String requestId,
        String responseFlags,
        String downstreamAddress,
        String downstreamPeer,
        String upstreamCluster,
        String rpcService,
        String rpcMethod,
        boolean grpc,
        String[] requestHeaders,
        String[] responseHeaders,
        String[] trailers,
        String traceId,
        String spanId) {

    public AccessLogEntry {
        requireNonNull(listener, "listener");
        requireNonNull(protocol, "protocol");
        requireNonNull(responseFlags, "responseFlags");
    }
}
