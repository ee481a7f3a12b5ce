package io.tollgate.router.lb;

import io.tollgate.core.route.RouteRequest;
import io.tollgate.router.host.Host;
import java.util.function.Function;

/**
 * What the hash balancers share: the request's hash from a {@link HashPolicy}, and a lookup
 * structure of type {@code T} derived once per {@link Candidates} instance, so that a choice is
 * a lookup with no allocation.
 */
abstract class HashLoadBalancer<T> implements LoadBalancer {

    private final HashPolicy hashPolicy;
    /** One function object for the life of the balancer: {@link Candidates#derived} compares it by identity. */
    private final Function<Candidates, T> build = this::build;

    HashLoadBalancer(HashPolicy hashPolicy) {
        this.hashPolicy = hashPolicy;
    }

    @Override
    public final Host choose(Candidates candidates, RouteRequest request) {
        return choose(candidates, request, null);
    }

    @Override
    public final Host choose(Candidates candidates, RouteRequest request, HashPolicy routeHashPolicy) {
        if (candidates.size() == 1) {
            return candidates.host(0);
        }
        long hash = (routeHashPolicy != null ? routeHashPolicy : hashPolicy).hash(request);
        return lookup(candidates.derived(build), candidates, hash);
    }

    @Override
    public final void prepare(Candidates candidates) {
        if (candidates.size() > 1) {
            candidates.derived(build);
        }
    }

    /** The lookup structure of {@code candidates}; called once per candidates instance. */
    abstract T build(Candidates candidates);

    /** The host of {@code hash} in {@code table}, which was built from {@code candidates}. */
    abstract Host lookup(T table, Candidates candidates, long hash);
}
