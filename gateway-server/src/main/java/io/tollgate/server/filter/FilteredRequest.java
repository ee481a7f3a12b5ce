package io.tollgate.server.filter;

import io.tollgate.core.filter.FilterHeaders;
import io.tollgate.core.filter.RequestBodyListener;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.route.Route;
import io.tollgate.server.exchange.ExchangeRecord;

/**
 * What a {@link FilterRun} needs of its request's protocol: what filters read that only the
 * protocol knows (its name, method, service, headers, the connection's TLS facts) and how the
 * request goes on once the chain let it through or a filter answered it. Each protocol's request
 * context implements it, so one run type serves every protocol.
 */
public interface FilteredRequest extends RouteRequest {

    /** The request's record, which tells the run when the request ends. */
    ExchangeRecord record();

    /** The request's route, null when none matched. */
    Route route();

    /** The protocol's name as the access log writes it ({@code HTTP/1.1}, {@code bolt}, ...). */
    String protocol();

    /** Whether this is a call of a multiplexed RPC protocol. */
    boolean rpc();

    /** Whether this is a gRPC request. */
    boolean grpc();

    /** The HTTP method, or the RPC method. */
    String method();

    /** The RPC service, null for HTTP. */
    String service();

    /** The server name the client asked for in its TLS handshake, or null. */
    String sni();

    /** The client certificate's identity, or null. */
    String peerIdentity();

    /** The request id the protocol carries when the record has none yet, or null. */
    String protocolRequestId();

    /** The request's headers as filters see them, made when a filter first asks. */
    FilterHeaders newFilterHeaders();

    /**
     * Reads the held request's body for a filter ({@link io.tollgate.core.filter.StreamFilterContext#readRequestBody});
     * a protocol without a separate body tells {@code listener} of an empty, whole one at once.
     */
    default void readBody(int maxBytes, RequestBodyListener listener) {
        listener.bodyRead(new byte[0], true);
    }

    /** The chain let the request through: the protocol goes on with it (the route's action). */
    void filtersPassed();

    /**
     * A filter answers the request: the protocol writes the answer in its own form and records it;
     * {@code reason} is null for an answer that is no error.
     */
    void filtersAnswered(int httpStatus, int grpcStatus, String reason);

    /** After a resume or an answer that came later than the request's read: what they wrote is flushed. */
    void afterFiltersAsync();

    /** After the filters heard that the request ended: the protocol lets go of what it kept for them. */
    void filtersEnded();
}
