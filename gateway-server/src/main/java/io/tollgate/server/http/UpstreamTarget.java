package io.tollgate.server.http;

import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.cluster.Host;
import io.tollgate.router.outlier.UpstreamOutcomes;
import io.tollgate.router.route.Route;
import io.tollgate.server.upstream.UpstreamPool;
import io.tollgate.server.upstream.UpstreamPools;
import java.util.List;

/**
 * Where one request's attempts go: the route and cluster chosen for it, the event loop's pools,
 * and where to report each attempt's outcome.
 *
 * @param view the request as the router saw it, to choose a host for a retry
 */
record UpstreamTarget(Route route, Cluster cluster, HttpRouteRequest view, UpstreamPools pools,
        UpstreamOutcomes outcomes) {

    /** The pool of {@code host} on this event loop. */
    UpstreamPool pool(Host host) {
        return pools.pool(cluster, host);
    }

    /** A host for a retry, another than those {@code tried} when the cluster has one; null when none is available. */
    Host retryHost(List<Host> tried) {
        return cluster.chooseExcluding(view, route.metadataMatch(),
                host -> tried.stream().anyMatch(t -> t.id().equals(host.id())));
    }
}
