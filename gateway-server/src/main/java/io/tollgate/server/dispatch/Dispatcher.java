package io.tollgate.server.dispatch;

import io.tollgate.core.metrics.ListenerMetrics;
import io.tollgate.router.cluster.Cluster;
import io.tollgate.router.host.Host;
import io.tollgate.router.route.Route;
import io.tollgate.server.exchange.ExchangeTarget;
import io.tollgate.server.exchange.ListenerRecords;
import io.tollgate.server.filter.FilterRun;
import io.tollgate.server.filter.StreamFilterChain;
import io.tollgate.server.overload.OverloadGuard;
import io.tollgate.server.snapshot.Snapshot;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * The one path of every protocol's request from the overload check to the start of its exchange:
 * overload, route, stream filters, the route's action, cluster and host, the exchange's target.
 * Each protocol plugs in through its {@link DownstreamSide}; a request is a {@link RequestContext}.
 * The same situation gets the same response flag and counter whatever the protocol. One per
 * listener and protocol, shared by its event loops: it holds no request state.
 */
public final class Dispatcher {

    private final String listener;
    private final Supplier<Snapshot> snapshot;
    private final OverloadGuard overload;
    private final ListenerRecords records;

    /**
     * @param overload while it says so, new requests are refused {@link GatewayError#OVERLOAD}
     * @param records the listener's: its name picks its routes and filters
     */
    public Dispatcher(Supplier<Snapshot> snapshot, OverloadGuard overload, ListenerRecords records) {
        this.listener = records.listenerName();
        this.snapshot = snapshot;
        this.overload = overload;
        this.records = records;
    }

    /** Dispatches a request whose record is set: refused, answered, held by a filter, or forwarded. */
    public <C extends RequestContext> void dispatch(C request, DownstreamSide<C> side) {
        if (overload.overloaded()) {
            refuse(request, side, GatewayError.OVERLOAD);
            return;
        }
        Snapshot current = snapshot.get();
        Route route = current.routeTable(listener).route(request);
        request.record().route(route);
        request.routed(current, route);
        StreamFilterChain chain = current.filters(listener).chain(route);
        if (chain.isEmpty()) {
            act(request, side);
            return;
        }
        FilterRun run = side.filterRun(request, chain);
        request.filters(run);
        if (run.start()) {
            side.passed(request);
        } else if (run.holding()) {
            side.held(request);
        }
    }

    /**
     * What the route says to do with a request its filters let through (or that has none): refuse
     * it (no route), let the protocol answer it (a direct response, a redirect), or forward it.
     */
    public <C extends RequestContext> void act(C request, DownstreamSide<C> side) {
        Route route = request.route();
        if (route == null || (route.kind() != Route.Kind.FORWARD && !side.answerByRoute(request))) {
            refuse(request, side, GatewayError.NO_ROUTE);
            return;
        }
        if (route.kind() != Route.Kind.FORWARD || !side.admit(request)) {
            return;
        }
        String clusterName = route.chooseCluster(ThreadLocalRandom.current().nextInt());
        Cluster cluster = request.snapshot().clusters().cluster(clusterName);
        Host host = cluster == null ? null : cluster.choose(request, route.metadataMatch(), route.hashPolicy());
        if (host == null && cluster != null && side.awaitCluster(request, clusterName)) {
            return;
        }
        toCluster(request, side, request.snapshot(), clusterName, cluster, host);
    }

    /**
     * Forwards a routed request to {@code host} of {@code cluster} (named {@code clusterName} by
     * the route, as read from {@code current}): refused {@link GatewayError#NO_CLUSTER} when the
     * cluster is missing, {@link GatewayError#NO_HEALTHY_UPSTREAM} when it has no host.
     */
    public <C extends RequestContext> void toCluster(C request, DownstreamSide<C> side, Snapshot current,
            String clusterName, Cluster cluster, Host host) {
        if (cluster == null || host == null) {
            side.refuse(request, unreachable(request, clusterName, cluster));
            return;
        }
        side.forward(request, target(request, current, clusterName, cluster), host);
    }

    /**
     * Flags and counts a request that cannot go to its cluster, named {@code clusterName}, as every
     * protocol does: {@link GatewayError#NO_CLUSTER} (counted on the listener) when {@code cluster}
     * is null, else {@link GatewayError#NO_HEALTHY_UPSTREAM} (counted on the cluster).
     *
     * @return the error to answer the request with
     */
    public GatewayError unreachable(RequestContext request, String clusterName, Cluster cluster) {
        if (cluster == null) {
            request.record().flag(GatewayError.NO_CLUSTER.flag());
            listenerMetrics().error(GatewayError.NO_CLUSTER.reason());
            return GatewayError.NO_CLUSTER;
        }
        request.record().flag(GatewayError.NO_HEALTHY_UPSTREAM.flag());
        records.metrics().cluster(clusterName).noHealthyHost();
        return GatewayError.NO_HEALTHY_UPSTREAM;
    }

    /** Where {@code request}'s exchange goes: {@code cluster}, named {@code clusterName} in {@code current}. */
    public ExchangeTarget target(RequestContext request, Snapshot current, String clusterName, Cluster cluster) {
        Route route = request.route();
        return new ExchangeTarget(route, cluster, request, cluster.circuitBreakers(route.priority()),
                current.outliers().outcomes(clusterName), records.metrics().cluster(clusterName));
    }

    /** A fresh snapshot, for a request that waited for its cluster. */
    public Snapshot snapshot() {
        return snapshot.get();
    }

    /** Flags, counts by reason on the listener, and lets the protocol answer. */
    private <C extends RequestContext> void refuse(C request, DownstreamSide<C> side, GatewayError error) {
        request.record().flag(error.flag());
        listenerMetrics().error(error.reason());
        side.refuse(request, error);
    }

    /** The meters of the listener this dispatcher serves. */
    public ListenerMetrics listenerMetrics() {
        return records.listenerMetrics();
    }
}
