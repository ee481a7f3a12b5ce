package io.tollgate.filters.headers;

import io.tollgate.core.filter.StreamFilterContext;
import java.util.function.Function;

/**
 * A value a header may take from its request, named as Envoy's access log and header formatters
 * name it and written {@code %NAME%}. A value not known (yet) renders empty.
 */
enum HeaderVariable {
    /** The client's IP address. */
    DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT(StreamFilterContext::clientAddress),
    /** The upstream host's address; known in response headers, empty in request headers. */
    UPSTREAM_REMOTE_ADDRESS(StreamFilterContext::upstreamHost),
    /** The name of the route the request took. */
    ROUTE_NAME(StreamFilterContext::routeName),
    /** The request's id ({@code x-request-id}, given or made by the gateway). */
    REQUEST_ID(StreamFilterContext::requestId),
    /** The name of the listener the request came in on (Tollgate's own). */
    LISTENER_NAME(StreamFilterContext::listenerName),
    /** The protocol, e.g. {@code HTTP/1.1}, {@code HTTP/2.0}. */
    PROTOCOL(StreamFilterContext::protocol),
    /** The server name the client asked for in its TLS handshake. */
    REQUESTED_SERVER_NAME(StreamFilterContext::sni);

    private final Function<StreamFilterContext, String> reader;

    HeaderVariable(Function<StreamFilterContext, String> reader) {
        this.reader = reader;
    }

    /** The variable's value for the request, or "" when it has none. */
    String value(StreamFilterContext context) {
        String value = reader.apply(context);
        return value == null ? "" : value;
    }
}
