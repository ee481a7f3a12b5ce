package io.tollgate.core.filter;

/**
 * Hears the body of a request a filter holds, once it was read up to the filter's limit
 * ({@link StreamFilterContext#readRequestBody}): an authorization check that looks at the body
 * (Envoy's ext_authz {@code with_request_body}) decides on it before the request goes on.
 */
@FunctionalInterface
public interface RequestBodyListener {

    /**
     * The body read, on the request's event loop.
     *
     * @param body a copy of the body's first bytes, at most the limit asked for; the listener owns it
     * @param whole false when the body is longer than the limit: {@code body} holds its first bytes only
     */
    void bodyRead(byte[] body, boolean whole);
}
