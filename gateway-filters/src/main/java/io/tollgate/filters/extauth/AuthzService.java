package io.tollgate.filters.extauth;

import io.tollgate.core.filter.StreamFilterContext;
import java.util.function.Consumer;

/** A way of asking the authorization service about a request: Envoy's gRPC API, or an HTTP subrequest. */
interface AuthzService {

    /**
     * Starts the check of {@code context}'s request; {@code done} hears the decision once, on the
     * request's event loop, unless the returned handle cancelled the check first.
     */
    Runnable check(StreamFilterContext context, Consumer<AuthzDecision> done);
}
