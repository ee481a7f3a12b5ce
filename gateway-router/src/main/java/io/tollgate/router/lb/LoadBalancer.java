package io.tollgate.router.lb;

import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.cluster.Host;
import java.util.List;

/**
 * Chooses one host of a cluster for a request. Implementations are registered by name in
 * {@link LoadBalancers} and MUST be safe to call from every event loop at once.
 */
public interface LoadBalancer {

    /**
     * Returns a host from {@code hosts} (the available ones, or all in panic; never empty), or null when none fits.
     */
    Host choose(List<Host> hosts, RouteRequest request);
}
