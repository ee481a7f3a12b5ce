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
     * Goes on with the chain after {@link FilterStatus#STOP}: the next filter runs, then the
     * route's action. Does nothing when the request ended meanwhile (its client went away, its
     * timeout passed). Called on {@link #executor()}.
     */
    void resume();

    /** What {@code filter} kept for this request, or null. */
    Object state(StreamFilter filter);

    /** Keeps {@code value} for this request on behalf of {@code filter}. */
    void state(StreamFilter filter, Object value);
}
