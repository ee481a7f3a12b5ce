package io.tollgate.server.shadow;

import io.tollgate.core.filter.MirrorListener;
import io.tollgate.core.filter.MirrorOutcome;
import io.tollgate.core.metrics.ClusterMetrics;
import io.tollgate.core.metrics.GatewayMetrics;
import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.breaker.CircuitBreakers;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.host.Host;
import io.tollgate.router.route.Route;
import io.tollgate.server.snapshot.Snapshot;
import java.util.concurrent.TimeUnit;

/**
 * Where a shadow copy of a request goes, whatever its protocol: a host of the shadow cluster
 * chosen by its load balancer, a request taken from its circuit breakers (of the route's priority)
 * that the copy gives back when it ends, its meters, and how long the copy may take (the route's
 * timeout).
 *
 * @param breakers the breakers a request was taken from, to be given back once
 */
public record ShadowTarget(Cluster cluster, Host host, CircuitBreakers breakers, ClusterMetrics metrics,
        long timeoutNanos) {

    /** How long a copy may take when its route sets no timeout. */
    private static final long DEFAULT_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(15);

    /**
     * Chooses the target of a copy of a request routed by {@code route}, or reports
     * {@link MirrorOutcome#FAILED} to {@code listener} and returns null when the cluster is unknown,
     * has no host, or its breakers refuse (each counted in the cluster's meters).
     *
     * @param view the request as routed; read now only
     */
    public static ShadowTarget choose(String clusterName, Snapshot snapshot, GatewayMetrics gatewayMetrics,
            Route route, RouteRequest view, MirrorListener listener) {
        ClusterMetrics metrics = gatewayMetrics.cluster(clusterName);
        Cluster cluster = snapshot.clusters().cluster(clusterName);
        Host host = cluster == null ? null : cluster.choose(view);
        if (host == null) {
            metrics.noHealthyHost();
            listener.mirrored(MirrorOutcome.FAILED);
            return null;
        }
        CircuitBreakers breakers = cluster.circuitBreakers(route.priority());
        if (!breakers.tryStartRequest()) {
            metrics.requestOverflow();
            listener.mirrored(MirrorOutcome.FAILED);
            return null;
        }
        long timeoutNanos = route.timeout().toNanos();
        return new ShadowTarget(cluster, host, breakers, metrics, timeoutNanos > 0 ? timeoutNanos : DEFAULT_TIMEOUT_NANOS);
    }
}
