package io.tollgate.router.lb;

import io.tollgate.router.host.Host;
import java.util.function.Function;

/**
 * The hosts a load balancer may choose from for one request (the healthy hosts of a cluster or
 * of one of its subsets), indexed by rank so that a choice costs no allocation and no pass over
 * the hosts. Immutable, so every event loop may read it at once.
 */
public interface Candidates {

    /** The number of hosts, at least 1. */
    int size();

    /** The host of rank {@code rank}, {@code 0 <= rank < size()}. */
    Host host(int rank);

    /**
     * Whether the host of rank {@code rank} may take requests. Candidates of a cluster's version
     * answer from what they were built of where they can; this default asks the host.
     */
    default boolean available(int rank) {
        return host(rank).available();
    }

    /**
     * The requests in flight to the host of rank {@code rank}. Candidates of a cluster read it from
     * the cluster's dense store of counts, without touching the host object; this default asks the host.
     */
    default int activeRequests(int rank) {
        return host(rank).activeRequests();
    }

    /** The weight of the host of rank {@code rank}; this default asks the host. */
    default int weight(int rank) {
        return host(rank).weight();
    }

    /** True when every host has the same weight, so that weights can be ignored. */
    boolean uniformWeights();

    /** The sum of the hosts' weights. */
    long totalWeight();

    /**
     * The host whose share of the weight line holds {@code point}, {@code 0 <= point <
     * totalWeight()}: the hosts' weights laid end to end in rank order.
     */
    Host hostAtWeight(long point);

    /**
     * What {@code derive} makes of these candidates (a hash ring, a lookup table), made once and
     * kept for as long as these candidates live, so that it is built once per host-set version
     * rather than per request. One value is kept, for the last {@code derive} asked (compared by
     * identity): a caller MUST pass the same function object each time. This default keeps
     * nothing and derives on every call.
     */
    default <T> T derived(Function<? super Candidates, ? extends T> derive) {
        return derive.apply(this);
    }
}
