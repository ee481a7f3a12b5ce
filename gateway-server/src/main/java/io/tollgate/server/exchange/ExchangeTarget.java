package io.tollgate.server.exchange;

import io.tollgate.core.metrics.ClusterMetrics;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.host.Host;
import io.tollgate.router.outlier.UpstreamOutcomes;
import io.tollgate.router.route.Route;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Where the attempts of one exchange go, whatever its protocol: the route and cluster chosen for
 * it, the breakers of the route's priority that each attempt and retry takes from, where each
 * attempt's outcome is reported, and the cluster's meters.
 *
 * @param view the request as the router saw it, to choose a host for a retry; for RPC protocols it
 *     reads the request frame, so it MUST only be used while the exchange holds that frame
 */
public record ExchangeTarget(Route route, Cluster cluster, RouteRequest view, CircuitBreakers breakers,
        UpstreamOutcomes outcomes, ClusterMetrics metrics) {

    /** A host for a retry, another than those {@code tried} when the cluster has one; null when none is available. */
    public Host retryHost(List<Host> tried) {
        return cluster.chooseExcluding(view, route.metadataMatch(),
                host -> tried.stream().anyMatch(t -> t.id().equals(host.id())));
    }

    /**
     * A host neither {@code tried} nor {@code avoided} (known down on this event loop), for a
     * request that may go anywhere else; null when the cluster has none. {@code avoided} is asked
     * at most once per host: a down host's answer may be its one trial.
     */
    public Host otherHost(List<Host> tried, Predicate<Host> avoided) {
        List<Host> down = new ArrayList<>(2);
        Predicate<Host> wasTried = host -> tried.stream().anyMatch(t -> t.id().equals(host.id()));
        Host other = cluster.chooseExcluding(view, route.metadataMatch(), host -> {
            if (down.contains(host) || wasTried.test(host)) {
                return true;
            }
            if (avoided.test(host)) {
                down.add(host);
                return true;
            }
            return false;
        });
        return other == null || down.contains(other) || wasTried.test(other) ? null : other;
    }
}
