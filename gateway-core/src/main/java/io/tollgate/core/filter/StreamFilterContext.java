package io.tollgate.core.filter;

import io.netty.util.concurrent.EventExecutor;
import io.tollgate.core.accesslog.ResponseFlag;
import io.tollgate.core.route.RouteRequest;

/**
 * One request as its filters see it, the same for every protocol: what it asks for (the routing
 * view: authority, path, headers, client address; for RPC the service as authority and
 * {@code /service/method} as path), who asks (address, SNI, certificate identity), the route it
 * took, and the means to answer it in the protocol's own form or to hold it and go on later.
 * Confined to the request's event loop; a filter keeps it no longer than the request lives.
 */
public interface StreamFilterContext {

    /** The protocol as the access log names it: {@code HTTP/1.1}, {@code HTTP/2.0}, {@code bolt}, {@code dubbo} ... */
    String protocol();

    /** Whether the request is a call of a multiplexed RPC protocol (Bolt, Dubbo, a plug-in). */
    boolean rpc();

    /** Whether the request is a gRPC call. */
    boolean grpc();

    /** The HTTP method, or the RPC method's name (null when the frame names none). */
    String method();

    /** The RPC service (Bolt's service, Dubbo's interface), or null for HTTP. */
    String service();

    /** The routing view of the request. */
    RouteRequest request();

    /** The request's headers (HTTP headers, Bolt headers, Dubbo attachments); see {@link FilterHeaders#writable()}. */
    FilterHeaders requestHeaders();

    /** The client's IP address as text, without the port. */
    String clientAddress();

    /** The server name the client asked for in its TLS handshake, or null. */
    String sni();

    /** The verified client certificate's identity (its first URI or DNS SAN, else its subject), or null. */
    String peerIdentity();

    /** The name of the listener the request came in on. */
    String listenerName();

    /** The name of the route the request took, or null when none matched. */
    String routeName();

    /** The request's id: HTTP's {@code x-request-id} once set, the RPC frame's id; null when unknown yet. */
    String requestId();

    /** The upstream host's address once one was chosen, else null. */
    String upstreamHost();

    /** The request's event loop, for timers and for coming back after asynchronous work. */
    EventExecutor executor();

    /** Adds {@code flag} to the request's access log entry. */
    void flag(ResponseFlag flag);

    /**
     * Names the request's trace and the gateway's span in its access log entry ({@code %TRACE_ID%},
     * {@code %SPAN_ID%}); the {@code trace} filter calls it.
     */
    void trace(String traceId, String spanId);

    /**
     * Answers the request now, in the protocol's form, instead of sending it on: an HTTP response
     * with {@code httpStatus}, a gRPC trailers-only response with the status matching it, a Bolt
     * or Dubbo error status with the caller's id. Ends the chain; {@code reason} is counted, and
     * sent as {@code x-tollgate-error} (HTTP) or the status's message.
     */
    void respond(int httpStatus, String reason);

    /**
     * {@link #respond(int, String)} with an explicit gRPC status code for gRPC requests (e.g.
     * RESOURCE_EXHAUSTED, 8, for a rate limit, where the HTTP status alone would say UNAVAILABLE).
     */
    void respond(int httpStatus, int grpcStatus, String reason);

    /**
     * {@link #respond(int, String)} with {@code body} as the HTTP answer's body (UTF-8,
     * {@code text/plain} unless a filter's {@link StreamFilter#onResponse} sets another type), as
     * Envoy's ext_authz passes the authorization service's denial on. A gRPC or RPC answer carries
     * no body: for them this is {@link #respond(int, String)}.
     */
    default void respond(int httpStatus, String reason, String body) {
        respond(httpStatus, reason);
    }

    /**
     * Answers the request now with {@code httpStatus} and no body, as the gateway's own answer
     * and not an error (a CORS preflight's 200): no {@code x-tollgate-error}, nothing counted as an
     * error; the filters' {@link StreamFilter#onResponse} add their headers to it. Ends the chain.
     * An RPC call, which has no such answer, gets {@link #respond(int, String)} instead.
     */
    default void answer(int httpStatus) {
        respond(httpStatus, "filter_answer");
    }

    /**
     * Reads the body of the request this filter holds (or is about to hold by returning
     * {@link FilterStatus#STOP}) while the request waits, up to {@code maxBytes}, and tells
     * {@code listener} once: with the whole body when it ends within the limit, else with its first
     * {@code maxBytes} bytes as soon as more arrive. The body still goes upstream whole when the
     * request is let through. The route's timeout bounds the wait, as for any held request. A
     * request without a separate body (Bolt, Dubbo) is told at once of an empty, whole body. Called
     * on {@link #executor()}.
     */
    default void readRequestBody(int maxBytes, RequestBodyListener listener) {
        listener.bodyRead(new byte[0], true);
    }

    /**
     * Goes on with the chain after {@link FilterStatus#STOP}: the next filter runs, then the
     * route's action. Does nothing when the request ended meanwhile (its client went away, its
     * timeout passed). Called on {@link #executor()}.
     */
    void resume();

    /**
     * Shadows this request to {@code cluster}, fire and forget, as Envoy's request mirror policy
     * does: once the request is forwarded, a copy of it (for HTTP the head as sent upstream, with
     * {@code -shadow} appended to its host, and up to {@code maxBodyBytes} of its body; for RPC the
     * frame under an id of its own, a oneway frame as oneway) goes to a host of {@code cluster}
     * chosen by its load balancer, within its circuit breakers and the route's timeout; the answer
     * is read and dropped. The request itself is neither held nor slowed: the copy waits for
     * nothing of it. {@code listener} hears how the copy ended, once. Several calls send several
     * copies. A protocol that cannot mirror reports {@link MirrorOutcome#SKIPPED} at once.
     */
    default void mirror(String cluster, long maxBodyBytes, MirrorListener listener) {
        listener.mirrored(MirrorOutcome.SKIPPED);
    }

    /**
     * Tells {@code listener} of each upstream attempt the request makes from now on (one listener a
     * request; a later call replaces it). A request answered without going upstream makes none.
     */
    default void listenToAttempts(AttemptListener listener) {
    }

    /** What {@code filter} kept for this request, or null. */
    Object state(StreamFilter filter);

    /** Keeps {@code value} for this request on behalf of {@code filter}. */
    void state(StreamFilter filter, Object value);
}
