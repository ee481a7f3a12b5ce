package io.tollgate.server.bolt;

import io.tollgate.core.metrics.ClusterMetrics;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.Host;
import io.tollgate.router.outlier.UpstreamOutcomes;
import io.tollgate.router.route.Route;
import java.util.List;

/**
 * Where the attempts of one Bolt call go: the route and cluster chosen for it, the breakers of the
 * route's priority that each attempt and retry takes from, the event loop's pools, and where each
 * attempt's outcome is counted.
 *
 * @param view the request as the router saw it, to choose a host for a retry; it reads the
 *     request frame, so it MUST only be used while the call holds that frame
 */
record BoltTarget(BoltLoop loop, Route route, Cluster cluster, BoltRouteView view, CircuitBreakers breakers,
        UpstreamOutcomes outcomes, ClusterMetrics metrics) {

    /** The pool of {@code host} on this event loop. */
    BoltHostPool pool(Host host) {
        return loop.pool(cluster, host);
    }

    /** A host for a retry, another than those {@code tried} when the cluster has one; null when none is available. */
    Host retryHost(List<Host> tried) {
        return cluster.chooseExcluding(view, route.metadataMatch(),
                host -> tried.stream().anyMatch(t -> t.id().equals(host.id())));
    }
}
