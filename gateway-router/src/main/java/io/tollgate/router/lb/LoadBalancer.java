package io.tollgate.router.lb;

import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.host.Host;

/**
 * Chooses one host of a cluster for a request. Implementations are made by a
 * {@link LoadBalancerFactory} registered by policy name and MUST be safe to call from every event
 * loop at once; they MUST NOT allocate or walk all candidates, since they run once per request.
 */
public interface LoadBalancer {

    /**
     * Returns one of {@code candidates} (the available hosts, or all of them in panic; never
     * empty), or null when none fits.
     */
    Host choose(Candidates candidates, RouteRequest request);

    /**
     * {@link #choose(Candidates, RouteRequest)} hashing the request by {@code routeHashPolicy}
     * (a route's {@code hash_policy}) instead of the cluster's, when it is not null. Balancers that
     * do not hash ignore it.
     */
    default Host choose(Candidates candidates, RouteRequest request, HashPolicy routeHashPolicy) {
        return choose(candidates, request);
    }

    /**
     * Builds ahead of the first request whatever this balancer derives from {@code candidates}
     * (see {@link Candidates#derived}); the cluster calls it when it publishes a version, off the
     * event loops. Does nothing by default.
     */
    default void prepare(Candidates candidates) {
    }
}
