package io.tollgate.router.lb;

import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.cluster.Host;

/**
 * Chooses one host of a cluster for a request. Implementations are registered by name in
 * {@link LoadBalancers} and MUST be safe to call from every event loop at once; they MUST NOT
 * allocate or walk all candidates, since they run once per request.
 */
public interface LoadBalancer {

    /**
     * Returns one of {@code candidates} (the available hosts, or all of them in panic; never
     * empty), or null when none fits.
     */
    Host choose(Candidates candidates, RouteRequest request);
}
