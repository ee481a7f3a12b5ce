package io.tollgate.filters.extauth;

import io.tollgate.core.filter.StreamFilterContext;
import java.util.function.Consumer;

/** A way of asking the authorization service about a request: Envoy's gRPC API, or an HTTP subrequest. */
interface AuthzService {

    /**
     * Starts the check of {@code context}'s request, with its body when {@code body} is not null;
     * {@code done} hears the decision once, on the request's event loop, unless the returned
     * handle cancelled the check first.
     */
    Runnable check(StreamFilterContext context, CheckedBody body, Consumer<AuthzDecision> done);

    /**
     * The request body a check carries, and whether it is only the first bytes of a longer one
     * (told to the service in {@code x-envoy-auth-partial-body}, as Envoy does).
     */
    record CheckedBody(byte[] bytes, boolean partial) {

        /** The header that tells the service whether the body it got is partial. */
        static final String PARTIAL_HEADER = "x-envoy-auth-partial-body";
    }
}
